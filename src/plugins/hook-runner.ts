// Running the registered hooks of one name: handlers in priority order (higher first, ties in
// registration order), each under a time limit. A handler that throws or runs out of time is
// logged with its plugin id and skipped, except `before_tool_call`, which fails closed (the call is
// blocked, naming the plugin). Modifying hooks run one after another and their results merge by
// OpenClaw's rules; observing hooks run side by side and their results are ignored;
// `tool_result_persist` is synchronous.
import type { Logger } from "../lib/logger.js";
import type {
  BeforeModelResolveResult,
  BeforePromptBuildEvent,
  BeforePromptBuildResult,
  BeforeToolCallEvent,
  MessageSendingEvent,
  PluginHookAgentContext,
  PluginHookMap,
  PluginHookMessageContext,
  PluginHookName,
  PluginHookRegistration,
  PluginHookToolContext,
  ToolResultPersistEvent,
} from "./hook-types.js";

/** Default time limits (ms) when neither the plugin nor the operator sets one. */
export const DEFAULT_HOOK_TIMEOUTS = { decide: 15_000, observe: 30_000, gatewayStop: 5_000 };

/** A `before_tool_call` decision: blocked (why, by which plugin), or go on with these params. */
export type ToolCallDecision =
  | { blocked: true; pluginId: string; reason: string }
  | { blocked: false; params: Record<string, unknown> };

/** A `message_sending` decision: cancelled, or send this content. */
export type MessageSendingDecision =
  | { cancel: true; pluginId: string }
  | { cancel: false; content: string };

/** The hook points the gateway calls; built once from the loaded plugins' registrations. */
export interface PluginHookRunner {
  /** Whether any plugin registered this hook (callers skip building events otherwise). */
  has(hookName: PluginHookName): boolean;
  /** `before_agent_start` (legacy), run once per run: its results feed both phases below. */
  agentStart(event: BeforePromptBuildEvent, ctx: PluginHookAgentContext): Promise<HookResults>;
  /** `before_model_resolve`, then the legacy results' model fields: the first value wins. */
  resolveModel(
    event: PluginHookMap["before_model_resolve"][0],
    ctx: PluginHookAgentContext,
    legacy?: HookResults,
  ): Promise<BeforeModelResolveResult>;
  /** `before_prompt_build`, then the legacy results: merged prompt changes. */
  buildPrompt(
    event: BeforePromptBuildEvent,
    ctx: PluginHookAgentContext,
    legacy?: HookResults,
  ): Promise<BeforePromptBuildResult>;
  beforeToolCall(event: BeforeToolCallEvent, ctx: PluginHookToolContext): Promise<ToolCallDecision>;
  /** `tool_result_persist`, synchronously: the message to write. */
  persistToolResult(
    event: ToolResultPersistEvent,
    ctx: PluginHookToolContext,
  ): Record<string, unknown>;
  messageSending(
    event: MessageSendingEvent,
    ctx: PluginHookMessageContext,
  ): Promise<MessageSendingDecision>;
  /** An observing hook: every handler side by side; settles when all did (or ran out of time). */
  observe<K extends ObserveHookName>(
    hookName: K,
    event: PluginHookMap[K][0],
    ctx: PluginHookMap[K][1],
  ): Promise<void>;
}

/** The results of one hook's handlers, with their plugin ids (in priority order). */
export type HookResults = ReadonlyArray<{ pluginId: string; result: Record<string, unknown> }>;

/** Hooks whose results are ignored. */
export type ObserveHookName =
  | "agent_end"
  | "before_compaction"
  | "after_compaction"
  | "after_tool_call"
  | "message_received"
  | "message_sent"
  | "session_start"
  | "session_end"
  | "gateway_start"
  | "gateway_stop";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function join(parts: Array<string | undefined>): string | undefined {
  const kept = parts.filter((part): part is string => part !== undefined);
  return kept.length ? kept.join("\n\n") : undefined;
}

/** Builds the runner over `hooks` (the registry's list; sorted here once per name). */
export function createHookRunner(params: {
  hooks: readonly PluginHookRegistration[];
  logger: Logger;
  /** Plugins whose prompt-changing results are ignored (`hooks.allowPromptInjection: false`). */
  noPromptInjection?: ReadonlySet<string>;
}): PluginHookRunner {
  const byName = new Map<PluginHookName, PluginHookRegistration[]>();
  for (const hook of params.hooks) {
    const list = byName.get(hook.hookName) ?? [];
    list.push(hook);
    byName.set(hook.hookName, list);
  }
  for (const list of byName.values())
    list.sort((a, b) => b.priority - a.priority || a.order - b.order);
  const handlersOf = (name: PluginHookName) => byName.get(name) ?? [];

  const call = async (
    hook: PluginHookRegistration,
    event: unknown,
    ctx: unknown,
    fallbackMs: number,
  ) => {
    const ms = hook.timeoutMs ?? fallbackMs;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => hook.handler(event, ctx)), limit]);
    } finally {
      clearTimeout(timer);
    }
  };
  const logFailure = (hook: PluginHookRegistration, err: unknown, what: string) =>
    params.logger.warn(
      { plugin: hook.pluginId, hook: hook.hookName, error: errorText(err) },
      `plugin hook failed; ${what}`,
    );
  /** Each handler in order; a failure is logged and skipped. */
  const sequence = async (name: PluginHookName, event: unknown, ctx: unknown) => {
    const results: Array<{ pluginId: string; result: Record<string, unknown> }> = [];
    for (const hook of handlersOf(name)) {
      try {
        const result = await call(hook, event, ctx, DEFAULT_HOOK_TIMEOUTS.decide);
        if (isObject(result)) results.push({ pluginId: hook.pluginId, result });
      } catch (err) {
        logFailure(hook, err, "skipped");
      }
    }
    return results;
  };
  const promptResults = (items: Array<{ pluginId: string; result: Record<string, unknown> }>) =>
    items
      .filter((item) => !params.noPromptInjection?.has(item.pluginId))
      .map((item) => item.result);

  return {
    has: (name) => handlersOf(name).length > 0,
    agentStart: (event, ctx) =>
      sequence("before_agent_start", { ...event, messages: structuredClone(event.messages) }, ctx),
    async resolveModel(event, ctx, legacy = []) {
      const results = [...(await sequence("before_model_resolve", event, ctx)), ...legacy].map(
        (item) => item.result,
      );
      const modelOverride = results.map((r) => text(r.modelOverride)).find(Boolean);
      const providerOverride = results.map((r) => text(r.providerOverride)).find(Boolean);
      return {
        ...(modelOverride ? { modelOverride } : {}),
        ...(providerOverride ? { providerOverride } : {}),
      };
    },
    async buildPrompt(event, ctx, legacy = []) {
      const copy = { prompt: event.prompt, messages: structuredClone(event.messages) };
      const results = promptResults([
        ...(await sequence("before_prompt_build", copy, ctx)),
        ...legacy,
      ]);
      const merged: BeforePromptBuildResult = {};
      const systemPrompt = results.map((r) => text(r.systemPrompt)).find(Boolean);
      if (systemPrompt) merged.systemPrompt = systemPrompt;
      for (const key of [
        "prependContext",
        "appendContext",
        "prependSystemContext",
        "appendSystemContext",
      ] as const) {
        const value = join(results.map((r) => text(r[key])));
        if (value) merged[key] = value;
      }
      return merged;
    },
    async beforeToolCall(event, ctx) {
      let current = event.params;
      for (const hook of handlersOf("before_tool_call")) {
        let result: unknown;
        try {
          result = await call(
            hook,
            { ...event, params: current },
            ctx,
            DEFAULT_HOOK_TIMEOUTS.decide,
          );
        } catch (err) {
          logFailure(hook, err, "the tool call is blocked (fail closed)");
          const reason = `its before_tool_call hook failed (${errorText(err)})`;
          return { blocked: true, pluginId: hook.pluginId, reason };
        }
        if (!isObject(result)) continue;
        if (result.block === true) {
          const reason = text(result.blockReason) ?? "blocked by a plugin hook";
          return { blocked: true, pluginId: hook.pluginId, reason };
        }
        if (isObject(result.params)) current = result.params;
      }
      return { blocked: false, params: current };
    },
    persistToolResult(event, ctx) {
      let message = event.message;
      for (const hook of handlersOf("tool_result_persist")) {
        try {
          const result = hook.handler({ ...event, message }, ctx);
          if (result && typeof (result as Promise<unknown>).then === "function") {
            logFailure(hook, new Error("returned a promise (this hook is synchronous)"), "ignored");
            continue;
          }
          if (isObject(result) && isObject(result.message)) message = result.message;
        } catch (err) {
          logFailure(hook, err, "skipped");
        }
      }
      return message;
    },
    async messageSending(event, ctx) {
      let content = event.content;
      for (const hook of handlersOf("message_sending")) {
        let result: unknown;
        try {
          result = await call(hook, { ...event, content }, ctx, DEFAULT_HOOK_TIMEOUTS.decide);
        } catch (err) {
          logFailure(hook, err, "skipped");
          continue;
        }
        if (!isObject(result)) continue;
        if (result.cancel === true) return { cancel: true, pluginId: hook.pluginId };
        if (typeof result.content === "string") content = result.content;
      }
      return { cancel: false, content };
    },
    async observe(name, event, ctx) {
      const ms =
        name === "gateway_stop" ? DEFAULT_HOOK_TIMEOUTS.gatewayStop : DEFAULT_HOOK_TIMEOUTS.observe;
      await Promise.all(
        handlersOf(name).map((hook) =>
          call(hook, event, ctx, ms).catch((err: unknown) => logFailure(hook, err, "skipped")),
        ),
      );
    },
  };
}
