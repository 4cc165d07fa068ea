// Plugins: ES modules the gateway loads at start (`plugins.load.paths`, `<stateDir>/extensions`),
// each exporting `register(api)` to add typed hooks, agent tools, chat commands and gateway
// methods. Plugin code runs in the gateway's process: it is trusted code.

export {
  createHookRunner,
  DEFAULT_HOOK_TIMEOUTS,
  type MessageSendingDecision,
  type ObserveHookName,
  type PluginHookRunner,
  type ToolCallDecision,
} from "./hook-runner.js";
export type * from "./hook-types.js";
export { PLUGIN_HOOK_NAMES } from "./hook-types.js";
export { createPluginHost, loadPluginHost, type PluginHost } from "./host.js";
export { type LoadPluginsParams, loadPlugins } from "./loader.js";
export { observeInbound, withMessageHooks } from "./message-hooks.js";
export { applyPromptChanges } from "./prompt-hooks.js";
export { type RunHooks, runHooksFor } from "./run-hooks.js";
export { sessionLifecycleListener } from "./session-hooks.js";
export { withToolHooks } from "./tool-hooks.js";
export type * from "./types.js";
