// The short messages a verbose or reasoning session gets besides its reply: one line per tool call
// ("🛠️ exec: `ls -la`": the tool and a one-line summary of its arguments as inline code), the tool's
// result for verbose full (truncated, in a code block, marked when it failed), and the model's
// reasoning ("Reasoning:" and the text in italics). Markdown, as replies are; arguments and results
// sit in code so their own `*` or `_` never turn into formatting.

/** Longest argument summary of a tool-call line. */
export const TOOL_ARGS_MAX_CHARS = 120;
/** Longest tool result shown (verbose full). */
export const TOOL_RESULT_MAX_CHARS = 500;
/** Longest reasoning shown. */
export const REASONING_MAX_CHARS = 3000;

/** Argument names whose value alone says what a call does, most telling first. */
const SUMMARY_KEYS = ["command", "cmd", "path", "file_path", "url", "query", "pattern", "action"];

const FENCE = "```";

/** `text` on one line, cut to `max` characters with an ellipsis. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function cut(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

function argsSummary(args: unknown): string {
  if (args === undefined || args === null) return "";
  if (typeof args !== "object") return String(args);
  const record = args as Record<string, unknown>;
  const key = SUMMARY_KEYS.find((name) => typeof record[name] === "string" && record[name] !== "");
  if (key) return String(record[key]);
  const json = JSON.stringify(args);
  return json === "{}" ? "" : json;
}

/** The tool-call line: "🛠️ exec: `ls -la`" (just the tool when it has no arguments). */
export function toolCallText(call: { toolName: string; args: unknown }): string {
  const summary = oneLine(argsSummary(call.args), TOOL_ARGS_MAX_CHARS).replaceAll("`", "'");
  return summary ? `🛠️ ${call.toolName}: \`${summary}\`` : `🛠️ ${call.toolName}`;
}

/** The text parts of a tool result (`{content: [{type: "text", text}]}`), joined. */
function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((part) =>
      part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
        ? [(part as { text: string }).text]
        : [],
    )
    .join("\n");
}

/** The tool-result message (verbose full): the tool, ok or failed, and its output truncated. */
export function toolResultText(end: {
  toolName: string;
  result: unknown;
  isError: boolean;
}): string {
  const text = cut(resultText(end.result), TOOL_RESULT_MAX_CHARS).replaceAll(FENCE, "'''");
  const head = end.isError ? `⚠️ ${end.toolName} failed` : `📎 ${end.toolName} result`;
  return text ? `${head}:\n${FENCE}\n${text}\n${FENCE}` : `${head} (no text output)`;
}

/** The reasoning message: "Reasoning:" and each line of the text in italics; undefined when empty. */
export function reasoningText(reasoning: string): string | undefined {
  const text = cut(reasoning, REASONING_MAX_CHARS);
  if (!text) return undefined;
  const lines = text.split("\n").map((line) => (line.trim() ? `_${line.trim()}_` : ""));
  return ["Reasoning:", ...lines].join("\n");
}
