// Plugin gateway methods bound like the table's: one entry per registered name (a core method's
// name is refused), the scope the plugin asked for (default operator.admin, as OpenClaw treats an
// unclassified method), params any JSON object. The handler answers through `respond`; a handler
// that throws, or does not respond within the limit, is an UNAVAILABLE error naming the plugin.
import type { GatewayMethod, MethodResult } from "../gateway/methods/method.js";
import type { BoundMethod } from "../gateway/methods/method-table.js";
import type { Logger } from "../lib/logger.js";
import { ErrorCodes, gatewayError, type MethodName } from "../protocol/gateway/index.js";
import type { PluginMethodRegistration, PluginRegistry } from "./types.js";

/** How long a plugin method may take to respond (ms). */
export const PLUGIN_METHOD_TIMEOUT_MS = 30_000;

function bindOne(item: PluginMethodRegistration, logger: Logger): BoundMethod {
  const fail = (message: string): MethodResult => ({
    ok: false,
    error: gatewayError(
      ErrorCodes.UNAVAILABLE,
      `${item.method} (plugin ${item.pluginId}): ${message}`,
    ),
  });
  const handle = (call: Parameters<BoundMethod["handle"]>[0]): Promise<MethodResult> =>
    new Promise<MethodResult>((resolve) => {
      const timer = setTimeout(() => resolve(fail("no response")), PLUGIN_METHOD_TIMEOUT_MS);
      const settle = (result: MethodResult) => {
        clearTimeout(timer);
        resolve(result);
      };
      const respond = (
        ok: boolean,
        payload?: unknown,
        error?: { code?: string; message: string },
      ) => {
        if (ok) return settle({ ok: true, payload: payload ?? null });
        const code =
          Object.values(ErrorCodes).find((c) => c === error?.code) ?? ErrorCodes.UNAVAILABLE;
        settle({ ok: false, error: gatewayError(code, error?.message ?? `${item.method} failed`) });
      };
      const client = {
        connId: call.client.connId,
        scopes: call.client.scopes,
        clientId: call.client.clientId,
      };
      Promise.resolve()
        .then(() =>
          item.handler({ params: (call.params ?? {}) as Record<string, unknown>, client, respond }),
        )
        .catch((err: unknown) => {
          const error = err instanceof Error ? err.message : String(err);
          logger.error(
            { plugin: item.pluginId, method: item.method, error },
            "plugin method failed",
          );
          settle(fail(error));
        });
    });
  const method: GatewayMethod = {
    name: item.method as MethodName,
    scope: item.scope,
    params: { type: "object" },
    uses: [],
    handler: () => fail("not bound"),
  };
  return { method, handle };
}

/** The core methods plus the plugins' (a name the core serves is refused, noted on the record). */
export function withPluginMethods(params: {
  methods: ReadonlyMap<string, BoundMethod>;
  registry: PluginRegistry;
  logger: Logger;
}): ReadonlyMap<string, BoundMethod> {
  if (params.registry.methods.length === 0) return params.methods;
  const merged = new Map(params.methods);
  for (const item of params.registry.methods) {
    if (merged.has(item.method)) {
      const note = `registerGatewayMethod: ${item.method} is a gateway method; refused`;
      const record = params.registry.plugins.find((plugin) => plugin.id === item.pluginId);
      if (record) {
        record.diagnostics.push(note);
        record.methods = record.methods.filter((name) => name !== item.method);
      }
      params.logger.warn({ plugin: item.pluginId }, note);
      continue;
    }
    merged.set(item.method, bindOne(item, params.logger));
  }
  return merged;
}
