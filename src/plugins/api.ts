// The `api` one plugin's `register(api)` gets: each call checks its input and records it in the
// shared registry under the plugin's id, or refuses it (a bad hook name, a tool without a name, a
// name another plugin took) as a diagnostic on the plugin's record, never as an exception.
import { isAbsolute, resolve } from "node:path";
import type { Logger } from "../lib/logger.js";
import { PLUGIN_HOOK_NAMES, type PluginHookName } from "./hook-types.js";
import { toolNameClash } from "./tool-hooks.js";
import type {
  PluginApi,
  PluginLogger,
  PluginMethodScope,
  PluginRecord,
  PluginRegistry,
} from "./types.js";

/** Operator hook budgets of one plugin (`plugins.entries.<id>.hooks`). */
export interface HookBudgetConfig {
  timeoutMs?: number;
  timeouts?: Record<string, number>;
}

/** Inputs of {@link createPluginApi}. */
export interface CreatePluginApiParams {
  record: PluginRecord;
  /** The plugin's folder: `resolvePath` is relative to it. */
  rootDir: string;
  pluginConfig: Record<string, unknown>;
  registry: PluginRegistry;
  logger: Logger;
  budgets?: HookBudgetConfig;
}

const COMMAND_NAME = /^[a-z][a-z0-9_-]*$/i;
const SCOPES: readonly PluginMethodScope[] = ["operator.read", "operator.write", "operator.admin"];

function pluginLogger(logger: Logger): PluginLogger {
  return {
    debug: (message) => logger.debug(message),
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message) => logger.error(message),
  };
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The effective budget: the operator's per-hook value, then their plugin-wide one, then the
 *  plugin's own `timeoutMs`. */
function budgetOf(
  hookName: PluginHookName,
  own: number | undefined,
  budgets: HookBudgetConfig | undefined,
): number | undefined {
  return positive(budgets?.timeouts?.[hookName]) ?? positive(budgets?.timeoutMs) ?? positive(own);
}

/** Builds the api of one plugin over the shared registry. */
export function createPluginApi(params: CreatePluginApiParams): PluginApi {
  const { record, registry } = params;
  const refuse = (message: string) => {
    record.diagnostics.push(message);
    params.logger.warn({ plugin: record.id }, message);
  };
  return {
    id: record.id,
    name: record.name ?? record.id,
    source: record.source,
    pluginConfig: params.pluginConfig,
    config: params.pluginConfig,
    logger: pluginLogger(params.logger),
    resolvePath: (input) => (isAbsolute(input) ? input : resolve(params.rootDir, input)),
    on(hookName, handler, opts) {
      if (!PLUGIN_HOOK_NAMES.includes(hookName)) {
        refuse(`api.on: unknown hook "${String(hookName)}" ignored`);
        return;
      }
      if (typeof handler !== "function") {
        refuse(`api.on("${hookName}"): the handler is not a function`);
        return;
      }
      const priority = typeof opts?.priority === "number" ? opts.priority : 0;
      const timeoutMs = budgetOf(hookName, opts?.timeoutMs, params.budgets);
      registry.hooks.push({
        pluginId: record.id,
        hookName,
        handler,
        priority,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        order: registry.hooks.length,
      });
      if (!record.hooks.includes(hookName)) record.hooks.push(hookName);
    },
    registerTool(tool, opts) {
      if (opts?.optional) {
        refuse("registerTool: optional tools are not supported by Pincer; the tool is not offered");
        return;
      }
      const named = typeof tool === "function" ? opts?.name : (opts?.name ?? tool?.name);
      if (typeof tool !== "function" && (!tool || typeof tool.execute !== "function" || !named)) {
        refuse("registerTool: a tool needs a name and an execute function");
        return;
      }
      const taken = new Set(
        registry.tools.flatMap((item) => item.names.map((n) => n.toLowerCase())),
      );
      const clash = named ? toolNameClash(named, taken) : undefined;
      if (clash) {
        refuse(`registerTool: refused, ${clash}`);
        return;
      }
      const names = named ? [named] : [];
      registry.tools.push({ pluginId: record.id, names, tool });
      record.tools.push(...(names.length ? names : ["(factory)"]));
    },
    registerCommand(command) {
      const name = typeof command?.name === "string" ? command.name.replace(/^\//, "") : "";
      if (!COMMAND_NAME.test(name) || typeof command.handler !== "function") {
        refuse(
          `registerCommand: "${name}" needs a name (a letter, then letters, digits, - or _) and a handler`,
        );
        return;
      }
      const lower = name.toLowerCase();
      const taken = registry.commands.find((item) => item.command.name.toLowerCase() === lower);
      if (taken) {
        refuse(`registerCommand: /${lower} is already registered by plugin ${taken.pluginId}`);
        return;
      }
      registry.commands.push({ pluginId: record.id, command: { ...command, name: lower } });
      record.commands.push(lower);
    },
    registerGatewayMethod(method, handler, opts) {
      const scope = opts?.scope ?? "operator.admin";
      if (typeof method !== "string" || method.trim() === "" || typeof handler !== "function") {
        refuse("registerGatewayMethod: needs a method name and a handler");
        return;
      }
      if (!SCOPES.includes(scope)) {
        refuse(`registerGatewayMethod(${method}): unknown scope "${String(scope)}"`);
        return;
      }
      const taken = registry.methods.find((item) => item.method === method);
      if (taken) {
        refuse(
          `registerGatewayMethod: ${method} is already registered by plugin ${taken.pluginId}`,
        );
        return;
      }
      registry.methods.push({ pluginId: record.id, method, scope, handler });
      record.methods.push(method);
    },
  };
}
