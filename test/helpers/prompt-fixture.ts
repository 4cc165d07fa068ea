// Shared inputs for system-prompt tests: a realistic tool list and runtime, so every test
// builds prompts from the same picture of a first turn.
import type {
  PromptBootstrapFile,
  PromptTool,
  SystemPromptParams,
} from "../../src/agents/system-prompt.js";

/** Fourteen tools with one-line descriptions, like a typical agent's set. */
export const SAMPLE_TOOLS: PromptTool[] = [
  { name: "read", description: "Read a file (text or image) by path." },
  { name: "write", description: "Create or overwrite a file." },
  { name: "edit", description: "Replace exact text in a file." },
  { name: "exec", description: "Run a shell command in the workspace." },
  { name: "process", description: "Manage background exec sessions." },
  { name: "web_search", description: "Search the web." },
  { name: "web_fetch", description: "Fetch a URL and extract readable text." },
  { name: "memory_search", description: "Search MEMORY.md and memory/*.md." },
  { name: "memory_get", description: "Read lines from a memory file." },
  { name: "message", description: "Send a message to a chat on any channel." },
  { name: "sessions_send", description: "Send a message to another session." },
  { name: "session_status", description: "Current time, model and usage of this session." },
  { name: "cron", description: "Schedule reminders and recurring jobs." },
  { name: "gateway", description: "config.get, config.apply, update.run, restart." },
];

/** Full-mode params for a first turn in `workspaceDir` with `bootstrapFiles`, plus overrides. */
export function samplePromptParams(
  base: { workspaceDir: string; bootstrapFiles: PromptBootstrapFile[] },
  overrides: Partial<SystemPromptParams> = {},
): SystemPromptParams {
  return {
    mode: "full",
    agent: { id: "main", identity: { name: "Molty", emoji: "🦞" } },
    tools: SAMPLE_TOOLS,
    workspaceDir: base.workspaceDir,
    bootstrapFiles: base.bootstrapFiles,
    userTimezone: "Europe/Madrid",
    timeFormat: "24",
    runtime: {
      host: "ana-laptop",
      os: "linux 6.8 (x64)",
      node: "v20.19.0",
      model: "anthropic/claude-sonnet-4-5",
      agentId: "main",
      sessionKey: "agent:main:main",
      channel: "telegram",
      thinkingLevel: "low",
    },
    docsPath: "/usr/lib/node_modules/pincer/docs",
    heartbeat: { prompt: "Read HEARTBEAT.md and act on it; if nothing needs attention, say so." },
    reasoning: { level: "off" },
    ...overrides,
  };
}
