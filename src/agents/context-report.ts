// What a run would send to the model and how big each part is: the system prompt by section, each
// injected file, each tool schema, the skills list and the history. Backs `pincer context` and `/context`.
import { tokensForChars } from "../lib/token-estimate.js";
import {
  buildSystemPrompt,
  type PromptMode,
  type SystemPromptParams,
  type SystemPromptSection,
} from "./system-prompt.js";
import {
  bootstrapFileBody,
  formatToolLine,
  renderedBootstrapFiles,
} from "./system-prompt-sections.js";

/** A tool as the runtime sends it: the JSON Schema of its parameters counts against the window. */
export interface ToolSchemaView {
  name: string;
  description?: string;
  /** JSON Schema object of the tool's parameters. */
  parameters: unknown;
}

/** Inputs for {@link buildContextReport}: the prompt's params, with full tool schemas and history. */
export interface ContextReportParams extends Omit<SystemPromptParams, "tools"> {
  tools: ToolSchemaView[];
  /** Size of the session history that would be replayed, when a session is known. */
  history?: { messages: number; chars: number };
}

/** One injected workspace file: size on disk, size in the prompt, and whether it was cut. */
export interface ContextReportFile {
  name: string;
  path: string;
  missing: boolean;
  truncated: boolean;
  rawChars: number;
  injectedChars: number;
}

/** One tool's two costs: its line in the Tooling section and its JSON schema. */
export interface ContextReportTool {
  name: string;
  listChars: number;
  schemaChars: number;
}

/** One skill's entry in the `<available_skills>` block. */
export interface ContextReportSkill {
  name: string;
  chars: number;
}

/** What a run would send, part by part; plain JSON (this is `pincer context --json`). */
export interface ContextReport {
  agentId: string;
  sessionKey?: string;
  model: string;
  mode: PromptMode;
  /** `sections[].chars` add up exactly to `chars` (separators count in the following section). */
  systemPrompt: { chars: number; sections: SystemPromptSection[] };
  /** Injected files in prompt order (empty when the prompt injects none). */
  files: ContextReportFile[];
  /** Tool schemas in the order given. */
  tools: ContextReportTool[];
  /** The skills list as sent (zero when the prompt has no Skills section). */
  skills: { count: number; chars: number; entries: ContextReportSkill[] };
  history: { messages: number; chars: number };
  /** `chars` = system prompt + tool schemas + history; files and skills are inside the prompt. */
  totals: {
    systemPromptChars: number;
    toolSchemaChars: number;
    historyChars: number;
    chars: number;
    estimatedTokens: number;
  };
}

/** Characters a tool costs as a schema: its name, description and parameters as JSON. */
export function toolSchemaChars(tool: ToolSchemaView): number {
  const json = JSON.stringify({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.parameters ?? {},
  });
  return json.length;
}

const XML_ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
  "&amp;": "&",
};

function unescapeXml(text: string): string {
  return text.replace(/&(?:lt|gt|quot|apos|amp);/g, (entity) => XML_ENTITIES[entity] ?? entity);
}

/** The `<skill>` entries of an `<available_skills>` block with their sizes, in block order. */
export function parseSkillsBlock(block: string): ContextReportSkill[] {
  const entries: ContextReportSkill[] = [];
  for (const match of block.matchAll(/<skill>([\s\S]*?)<\/skill>/g)) {
    const name = /<name>([\s\S]*?)<\/name>/.exec(match[1] ?? "")?.[1] ?? "";
    entries.push({ name: unescapeXml(name.trim()), chars: match[0].length });
  }
  return entries;
}

/** Builds the report by building the prompt itself, so its numbers always match what is sent. */
export function buildContextReport(params: ContextReportParams): ContextReport {
  const prompt = buildSystemPrompt(params);
  const included = new Set(prompt.sections.map((section) => section.id));
  const files: ContextReportFile[] = included.has("project-context")
    ? renderedBootstrapFiles(params.bootstrapFiles).map((file) => ({
        name: file.name,
        path: file.path,
        missing: file.missing,
        truncated: file.truncated,
        rawChars: file.rawChars ?? (file.missing ? 0 : file.content.length),
        injectedChars: bootstrapFileBody(file).length,
      }))
    : [];
  const listed = included.has("tooling");
  const tools = params.tools.map((tool) => ({
    name: tool.name,
    listChars: listed ? formatToolLine(tool).length : 0,
    schemaChars: toolSchemaChars(tool),
  }));
  const skillsBlock = included.has("skills") ? (params.skillsPrompt?.trim() ?? "") : "";
  const skillEntries = parseSkillsBlock(skillsBlock);
  const history = {
    messages: params.history?.messages ?? 0,
    chars: params.history?.chars ?? 0,
  };
  const toolChars = tools.reduce((sum, tool) => sum + tool.schemaChars, 0);
  const chars = prompt.text.length + toolChars + history.chars;
  return {
    agentId: params.runtime.agentId,
    ...(params.runtime.sessionKey ? { sessionKey: params.runtime.sessionKey } : {}),
    model: params.runtime.model,
    mode: params.mode,
    systemPrompt: { chars: prompt.text.length, sections: prompt.sections },
    files,
    tools,
    skills: { count: skillEntries.length, chars: skillsBlock.length, entries: skillEntries },
    history,
    totals: {
      systemPromptChars: prompt.text.length,
      toolSchemaChars: toolChars,
      historyChars: history.chars,
      chars,
      estimatedTokens: tokensForChars(chars),
    },
  };
}
