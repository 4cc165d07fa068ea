// The tool catalog: Pincer's built-in tool names, and OpenClaw's `group:*` lists and profiles
// (as OpenClaw's `src/agents/tool-catalog.ts` defines them) restricted to the tools Pincer has.

/** Every built-in tool, in the order the model sees them. */
export const PINCER_TOOL_NAMES = [
  "read",
  "write",
  "edit",
  "apply_patch",
  "exec",
  "process",
  "memory_search",
  "memory_get",
  "session_status",
  "sessions_list",
  "sessions_history",
  "sessions_send",
  "sessions_spawn",
  "cron",
  "nodes",
] as const;

/** Name of a built-in tool. */
export type PincerToolName = (typeof PINCER_TOOL_NAMES)[number];

/** Tool profiles (`tools.profile`). */
export type ToolProfileName = "minimal" | "coding" | "messaging" | "full";

/** OpenClaw's group lists verbatim (2026.9.6); {@link TOOL_GROUPS} keeps the names Pincer implements. */
const OPENCLAW_GROUPS: Record<string, readonly string[]> = {
  "group:fs": ["ls", "read", "write", "edit", "apply_patch"],
  "group:runtime": ["exec", "process", "code_execution", "secrets"],
  "group:web": ["web_search", "web_fetch", "x_search"],
  "group:memory": ["memory_search", "memory_get"],
  "group:sessions": [
    ...["sessions", "sessions_list", "sessions_history", "sessions_search", "conversations_list"],
    ...["conversations_send", "conversations_turn", "sessions_send", "sessions_spawn"],
    ...["github_identity_status", "github_publish", "agents_wait", "sessions_yield", "subagents"],
    ...["session_status", "suggest_task", "dismiss_task"],
  ],
  "group:ui": [
    "browser",
    "screen",
    "theme",
    "dashboard",
    "terminal",
    "portal",
    "canvas",
    "show_widget",
  ],
  "group:messaging": ["message"],
  // `cron` is the scheduler tool of OpenClaw's earlier lists (Pincer keeps its name and actions).
  "group:automation": [
    "cron",
    "heartbeat_respond",
    "automations",
    "gateway",
    "plugins",
    "openclaw",
  ],
  "group:nodes": ["nodes", "computer", "mobile_ui"],
  "group:agents": [
    ...["agents_list", "get_goal", "create_goal", "update_goal", "progress_card", "ask_user"],
    "skill_workshop",
  ],
  "group:media": ["view_image", "image_generate", "music_generate", "video_generate", "tts", "pdf"],
  "group:openclaw": PINCER_TOOL_NAMES,
};

/** OpenClaw's profiles verbatim (`full` is every tool); {@link TOOL_PROFILES} keeps Pincer's tools. */
const OPENCLAW_PROFILES: Record<Exclude<ToolProfileName, "full">, readonly string[]> = {
  minimal: ["session_status", "gateway"],
  coding: [
    ...["group:fs", "group:runtime", "group:web", "group:memory", "group:sessions"],
    ...["screen", "theme", "dashboard", "terminal", "portal", "automations", "gateway", "plugins"],
    // OpenClaw's scheduler tool ("automations" above; `cron` in its earlier lists, Pincer's name).
    "cron",
    ...["get_goal", "create_goal", "update_goal", "progress_card", "ask_user", "skill_workshop"],
    ...["view_image", "image_generate", "music_generate", "video_generate", "bundle-mcp"],
  ],
  messaging: [
    ...["secrets", "sessions", "sessions_list", "sessions_history", "sessions_search"],
    ...["conversations_list", "conversations_send", "conversations_turn", "sessions_send"],
    ...["sessions_spawn", "sessions_yield", "subagents", "session_status", "theme", "message"],
    ...["gateway", "ask_user", "bundle-mcp"],
  ],
};

const KNOWN = new Set<string>(PINCER_TOOL_NAMES);

function onlyPincer(names: readonly string[]): PincerToolName[] {
  const expanded = names.flatMap((name) => OPENCLAW_GROUPS[name] ?? [name]);
  return PINCER_TOOL_NAMES.filter((tool) => expanded.includes(tool));
}

/** `group:*` names and the Pincer tools each stands for (empty for groups of tools Pincer lacks). */
export const TOOL_GROUPS: Readonly<Record<string, readonly PincerToolName[]>> = Object.freeze(
  Object.fromEntries(
    Object.entries(OPENCLAW_GROUPS).map(([group, names]) => [group, onlyPincer(names)]),
  ),
);

/** The tools of each profile; `full` is every tool. */
export const TOOL_PROFILES: Readonly<Record<ToolProfileName, readonly PincerToolName[]>> =
  Object.freeze({
    minimal: onlyPincer(OPENCLAW_PROFILES.minimal),
    coding: onlyPincer(OPENCLAW_PROFILES.coding),
    messaging: onlyPincer(OPENCLAW_PROFILES.messaging),
    full: [...PINCER_TOOL_NAMES],
  });

/** Profile used when neither `tools.profile` nor the agent's sets one: `full`, as in OpenClaw (no profile filter). */
export const DEFAULT_TOOL_PROFILE: ToolProfileName = "full";

/** Legacy and dialect names of tools: `bash` is `exec`, `apply-patch` is `apply_patch`. */
const TOOL_ALIASES: Record<string, string> = { bash: "exec", "apply-patch": "apply_patch" };

/** Lowercased, trimmed, aliases resolved. */
export function normalizeToolName(name: string): string {
  const lower = name.trim().toLowerCase();
  return TOOL_ALIASES[lower] ?? lower;
}

/** True for a built-in tool name. */
export function isPincerTool(name: string): name is PincerToolName {
  return KNOWN.has(name);
}
