// What a plugin sees (`register(api)`: hooks, tools, chat commands, gateway methods, its logger and
// config) and what the loader keeps of it: one record per plugin (where it came from, whether it
// loaded, what it registered) and the registrations themselves.
import type { AnyAgentTool } from "../runtime/tools/types.js";
import type {
  PluginHookHandler,
  PluginHookName,
  PluginHookOptions,
  PluginHookRegistration,
} from "./hook-types.js";

/** The logger a plugin gets (lines carry its id). */
export interface PluginLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a tool factory is told: the run it makes tools for. */
export interface PluginToolContext {
  agentId: string;
  sessionKey?: string;
  workspaceDir: string;
}

/** A plugin tool: a pi-agent-core tool, or a factory making it (or several, or none) per run. */
export type PluginToolInput =
  | AnyAgentTool
  | ((ctx: PluginToolContext) => AnyAgentTool | AnyAgentTool[] | null | undefined);

/** What a plugin chat command's handler is told. */
export interface PluginCommandContext {
  senderId: string;
  channel: string;
  /** The text after the command (only when `acceptsArgs`). */
  args?: string;
  /** The whole command as typed. */
  commandBody: string;
  sessionKey: string;
  agentId: string;
  /** The config current now. */
  config: unknown;
}

/** A chat command (`/name`), answered without the model. */
export interface PluginCommandDefinition {
  name: string;
  description: string;
  /** Whether it takes arguments; without, `/name something` goes to the model. Default false. */
  acceptsArgs?: boolean;
  /** In groups only authorized senders may use it. Default true. */
  requireAuth?: boolean;
  handler: (ctx: PluginCommandContext) => { text: string } | Promise<{ text: string }>;
}

/** Scopes a plugin gateway method can ask for. */
export type PluginMethodScope = "operator.read" | "operator.write" | "operator.admin";

/** What a plugin gateway method handler gets: the params, the caller and `respond`. */
export interface PluginGatewayMethodOptions {
  params: Record<string, unknown>;
  client: { connId: string; scopes: readonly string[]; clientId: string };
  /** Answers the request: `respond(true, payload)` or `respond(false, undefined, { code?, message })`. */
  respond: (ok: boolean, payload?: unknown, error?: { code?: string; message: string }) => void;
}

/** A plugin gateway method handler. */
export type PluginGatewayMethodHandler = (opts: PluginGatewayMethodOptions) => void | Promise<void>;

/** The api `register(api)` is called with. */
export interface PluginApi {
  id: string;
  name: string;
  source: string;
  /** The plugin's own config (`plugins.entries.<id>.config`, `{}` when unset). */
  pluginConfig: Record<string, unknown>;
  /** The same object as `pluginConfig` (older plugins read `api.config`). */
  config: Record<string, unknown>;
  logger: PluginLogger;
  /** A path relative to the plugin's folder, made absolute. */
  resolvePath(input: string): string;
  on<K extends PluginHookName>(
    hookName: K,
    handler: PluginHookHandler<K>,
    opts?: PluginHookOptions,
  ): void;
  registerTool(tool: PluginToolInput, opts?: { name?: string; optional?: boolean }): void;
  registerCommand(command: PluginCommandDefinition): void;
  registerGatewayMethod(
    method: string,
    handler: PluginGatewayMethodHandler,
    opts?: { scope?: PluginMethodScope },
  ): void;
}

/** A loaded plugin's status. */
export type PluginStatus = "loaded" | "error" | "disabled";

/** One plugin as `pincer plugins list` shows it. */
export interface PluginRecord {
  id: string;
  name?: string;
  description?: string;
  version?: string;
  /** The module file (or folder) it came from; empty for an entry that names no found plugin. */
  source: string;
  /** `config` (plugins.load.paths) or `global` (<stateDir>/extensions). */
  origin: "config" | "global" | "entry";
  status: PluginStatus;
  /** Why it is `error` or `disabled`. */
  error?: string;
  /** Problems with single registrations (a name clash refused) that did not fail the plugin. */
  diagnostics: string[];
  hooks: PluginHookName[];
  tools: string[];
  commands: string[];
  methods: string[];
}

/** A registered tool and the plugin it belongs to. */
export interface PluginToolRegistration {
  pluginId: string;
  /** Declared names (a factory's `opts.name(s)`), for listing; a plain tool's own name. */
  names: string[];
  tool: PluginToolInput;
}

/** A registered chat command and its plugin. */
export interface PluginCommandRegistration {
  pluginId: string;
  command: PluginCommandDefinition;
}

/** A registered gateway method and its plugin. */
export interface PluginMethodRegistration {
  pluginId: string;
  method: string;
  scope: PluginMethodScope;
  handler: PluginGatewayMethodHandler;
}

/** Everything the loaded plugins registered, and their records. */
export interface PluginRegistry {
  plugins: PluginRecord[];
  hooks: PluginHookRegistration[];
  tools: PluginToolRegistration[];
  commands: PluginCommandRegistration[];
  methods: PluginMethodRegistration[];
}
