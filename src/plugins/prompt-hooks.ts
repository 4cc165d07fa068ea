// Applying `before_prompt_build` results: `systemPrompt` replaces the built system prompt,
// `prependSystemContext` / `appendSystemContext` go around it, and `prependContext` /
// `appendContext` go around the user's message of this turn (as sent to the model and written to
// the transcript, like OpenClaw's effective prompt).
import type { BeforePromptBuildResult } from "./hook-types.js";

/** A user message's content: text, or text and image parts. */
type UserContent = string | Array<{ type: string; text?: string }>;

function around(before: string | undefined, middle: string, after: string | undefined): string {
  return [before, middle, after].filter((part) => part !== undefined && part !== "").join("\n\n");
}

/** The text of a user message's content (its text parts joined). */
export function contentText(content: UserContent): string {
  if (typeof content === "string") return content;
  return content
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

/** The system prompt after the hooks, and the prompt's content changed in place (same object, so
 *  the run still recognizes its prompt). */
export function applyPromptChanges(params: {
  systemPrompt: string;
  prompt: { content: UserContent } | undefined;
  result: BeforePromptBuildResult;
}): string {
  const { result, prompt } = params;
  if (prompt && (result.prependContext || result.appendContext)) {
    const { content } = prompt;
    if (typeof content === "string") {
      prompt.content = around(result.prependContext, content, result.appendContext);
    } else {
      const parts = [...content];
      if (result.prependContext) parts.unshift({ type: "text", text: result.prependContext });
      if (result.appendContext) parts.push({ type: "text", text: result.appendContext });
      prompt.content = parts;
    }
  }
  return around(
    result.prependSystemContext,
    result.systemPrompt ?? params.systemPrompt,
    result.appendSystemContext,
  );
}
