// Shapes of the internal hooks (OpenClaw's "hooks" run inside the gateway): the event a handler
// receives, the handler, and what discovery found in a hook folder (HOOK.md + handler module).

/** Event families, as OpenClaw names them (`type` of an event). */
export type HookEventType = "command" | "session" | "agent" | "gateway" | "message";

/** What a handler receives: OpenClaw's event shape. `messages` pushed by a handler are sent to the
 *  chat where the event came from (command events); `context` holds event-specific fields. */
export interface InternalHookEvent {
  type: HookEventType;
  /** `new`, `reset`, `stop`, `bootstrap`, `startup`, `received`, `sent`. */
  action: string;
  sessionKey: string;
  timestamp: Date;
  messages: string[];
  context: Record<string, unknown>;
}

/** A hook handler (a hook module's default export, or the export HOOK.md names). */
export type InternalHookHandler = (event: InternalHookEvent) => unknown;

/** Where a hook was found, highest precedence first (OpenClaw's order; extra dirs lowest). */
export type HookSource = "workspace" | "managed" | "bundled" | "extra";

/** Source precedence, highest first. */
export const HOOK_SOURCES: readonly HookSource[] = ["workspace", "managed", "bundled", "extra"];

/** `metadata.openclaw.requires` of HOOK.md, normalized (lists always present). */
export interface HookRequirements {
  bins: string[];
  anyBins: string[];
  env: string[];
  config: string[];
}

/** What HOOK.md says about a hook. */
export interface HookMetadata {
  name: string;
  description: string;
  homepage?: string;
  emoji?: string;
  /** Event keys: `command`, `command:new`, `agent:bootstrap`, `gateway:startup`, ... */
  events: string[];
  /** Named export of the handler module (default `default`). */
  exportName: string;
  os: string[];
  always: boolean;
  requires: HookRequirements;
}

/** Whether a hook runs: `ready`, or `disabled` (config), `blocked` (a requirement is missing),
 *  `shadowed` (a higher-precedence folder has the same name), `invalid` (HOOK.md or handler bad). */
export type HookStatus = "ready" | "disabled" | "blocked" | "shadowed" | "invalid";

/** One discovered hook and the verdict about it. */
export interface HookRecord {
  name: string;
  description: string;
  emoji?: string;
  homepage?: string;
  events: string[];
  source: HookSource;
  /** The hook folder (bundled hooks: `pincer:bundled/<name>`). */
  location: string;
  /** The handler module's path (absent for bundled hooks and when none was found). */
  handlerPath?: string;
  exportName: string;
  requires: HookRequirements;
  os: string[];
  always: boolean;
  status: HookStatus;
  /** Why it is not ready, in plain words. */
  reason?: string;
}

/** A folder that could not be searched (unreadable, configured but missing). */
export interface HookProblem {
  source: HookSource;
  path: string;
  message: string;
}

/** What discovery found: one record per hook name and folder, plus folders that failed. */
export interface HookDiscovery {
  hooks: HookRecord[];
  problems: HookProblem[];
}
