// The system prompt Pincer sends on every run: built fresh, small, and byte-stable for the same
// inputs so providers' prompt caches hit. No clock, no env, no I/O: callers pass everything in.
import { oneLine, SECTION_RENDERERS, type SectionDraft } from "./system-prompt-sections.js";

/** `full` for agents talking to users, `minimal` for sub-agents, `none` for the identity line only. */
export type PromptMode = "full" | "minimal" | "none";

/** Stable ids of the prompt's sections (also used by the context report). */
export type SystemPromptSectionId =
  | "identity"
  | "tooling"
  | "tool-call-style"
  | "safety"
  | "skills"
  | "memory-recall"
  | "self-update"
  | "model-aliases"
  | "workspace"
  | "documentation"
  | "project-context"
  | "sandbox"
  | "user-identity"
  | "time"
  | "reply-tags"
  | "messaging"
  | "silent-replies"
  | "heartbeats"
  | "extra-context"
  | "runtime"
  | "reasoning";

/** Section order in a `full` prompt; stable parts first, per-session parts (Runtime) last. */
export const PROMPT_SECTION_ORDER: readonly SystemPromptSectionId[] = [
  "identity",
  "tooling",
  "tool-call-style",
  "safety",
  "skills",
  "memory-recall",
  "self-update",
  "model-aliases",
  "workspace",
  "documentation",
  "project-context",
  "sandbox",
  "user-identity",
  "time",
  "reply-tags",
  "messaging",
  "silent-replies",
  "heartbeats",
  "extra-context",
  "runtime",
  "reasoning",
];

/** Sections a `minimal` (sub-agent) prompt leaves out, as OpenClaw's minimal mode does. */
export const MINIMAL_MODE_OMITTED: readonly SystemPromptSectionId[] = [
  "skills",
  "memory-recall",
  "self-update",
  "model-aliases",
  "user-identity",
  "reply-tags",
  "messaging",
  "silent-replies",
  "heartbeats",
];

/** A tool as the Tooling list shows it; the schema itself is sent separately by the runtime. */
export interface PromptTool {
  name: string;
  description?: string;
}

/** A bootstrap file as the loader hands it over: already capped, with its truncation flag. */
export interface PromptBootstrapFile {
  /** File name, e.g. `AGENTS.md`. */
  name: string;
  /** Absolute path; the file's heading (relative to the workspace when inside it). */
  path: string;
  /** Content to inject (after capping); for a missing file, the loader's marker or "". */
  content: string;
  missing: boolean;
  truncated: boolean;
  /** Size on disk before capping, when the loader knows it (context report only). */
  rawChars?: number;
}

/** The agent the prompt is for; identity comes from config or IDENTITY.md. */
export interface PromptAgent {
  id: string;
  name?: string;
  identity?: { name?: string; emoji?: string };
}

/** Sandbox settings of the run; the Sandbox section appears only when `enabled`. */
export interface PromptSandbox {
  enabled: boolean;
  /** Workspace path as seen inside the sandbox. */
  workspaceDir?: string;
  /** Whether elevated (host) exec is allowed. */
  elevated?: boolean;
  /** `sandbox.workspaceAccess`: what /workspace is (a sandbox copy, the agent workspace ro or rw). */
  workspaceAccess?: "none" | "ro" | "rw";
}

/** Facts for the one-line Runtime section. */
export interface PromptRuntime {
  host: string;
  os: string;
  node: string;
  model: string;
  agentId: string;
  sessionKey?: string;
  channel?: string;
  /** What the channel can do (`reactions`, `voice`, …); sorted in the prompt. */
  capabilities?: string[];
  thinkingLevel?: string;
  repoRoot?: string;
}

/** `agents.defaults.timeFormat`. */
export type PromptTimeFormat = "auto" | "12" | "24";

/** Everything {@link buildSystemPrompt} reads; arrays are rendered in the order given. */
export interface SystemPromptParams {
  mode: PromptMode;
  agent: PromptAgent;
  tools: PromptTool[];
  /** The formatted `<available_skills>` block; the Skills section is omitted when empty. */
  skillsPrompt?: string;
  workspaceDir: string;
  bootstrapFiles: PromptBootstrapFile[];
  sandbox?: PromptSandbox;
  /** IANA zone, e.g. `Europe/Madrid`; the prompt never carries the current time. */
  userTimezone?: string;
  timeFormat?: PromptTimeFormat;
  runtime: PromptRuntime;
  /** Where Pincer's docs are (path or URL); the Documentation section needs it. */
  docsPath?: string;
  heartbeat?: { prompt?: string };
  reasoning?: { level: string };
  /** `agents.defaults.models` aliases, already in display order. */
  modelAliases?: Array<{ alias: string; model: string }>;
  /** The owner's ids on the channels (phone numbers, user ids) for the User Identity section. */
  owners?: string[];
  /** Per-conversation or sub-agent task context, appended near the end. */
  extraSystemPrompt?: string;
}

/** One section of a built prompt and its size. */
export interface SystemPromptSection {
  id: SystemPromptSectionId;
  title: string;
  /** Characters this section adds to `text`, including the blank-line separator before it. */
  chars: number;
}

/** A built prompt; `sections[].chars` add up exactly to `text.length`. */
export interface SystemPromptResult {
  text: string;
  sections: SystemPromptSection[];
}

/** Blank line between sections; counted in the chars of the section that follows it. */
export const SECTION_SEPARATOR = "\n\n";

/** The base identity line, the whole prompt in `none` mode. */
export function buildIdentityLine(agent: PromptAgent): string {
  const name = oneLine(agent.identity?.name ?? agent.name ?? "");
  const emoji = oneLine(agent.identity?.emoji ?? "");
  const who = name ? `${name}${emoji ? ` ${emoji}` : ""}, a` : "a";
  return `You are ${who} personal assistant running inside Pincer.`;
}

function sectionText(section: SectionDraft): string {
  return `## ${section.title}\n${section.body}`;
}

/** Builds the system prompt for one run; pure and deterministic (same params, same bytes). */
export function buildSystemPrompt(params: SystemPromptParams): SystemPromptResult {
  const parts: Array<{ id: SystemPromptSectionId; title: string; text: string }> = [
    { id: "identity", title: "Identity", text: buildIdentityLine(params.agent) },
  ];
  if (params.mode !== "none") {
    for (const id of PROMPT_SECTION_ORDER) {
      if (id === "identity") continue;
      if (params.mode === "minimal" && MINIMAL_MODE_OMITTED.includes(id)) continue;
      const section = SECTION_RENDERERS[id](params);
      if (section) parts.push({ id, title: section.title, text: sectionText(section) });
    }
  }
  const text = parts.map((part) => part.text).join(SECTION_SEPARATOR);
  const sections = parts.map((part, index) => ({
    id: part.id,
    title: part.title,
    chars: part.text.length + (index === 0 ? 0 : SECTION_SEPARATOR.length),
  }));
  return { text, sections };
}
