// Plugin tools and the tool-call hooks. `resolvePluginTools` makes one run's plugin tools (a
// factory is called per run) and refuses a name a built-in tool or an earlier plugin tool has;
// `withToolHooks` wraps every tool of a run so `before_tool_call` can block a call (the model gets a
// tool error naming the plugin and its reason; the tool never runs) or rewrite its params, and
// `after_tool_call` sees what it returned.
import type { Logger } from "../lib/logger.js";
import { isPincerTool, normalizeToolName } from "../runtime/tools/catalog.js";
import { type AnyAgentTool, ToolError } from "../runtime/tools/types.js";
import type { PluginHookRunner } from "./hook-runner.js";
import type { PluginHookAgentContext } from "./hook-types.js";
import type { PluginToolContext, PluginToolRegistration } from "./types.js";

/** Why a plugin tool's name cannot be used, if it cannot. */
export function toolNameClash(name: string, taken: ReadonlySet<string>): string | undefined {
  const normal = normalizeToolName(name);
  if (isPincerTool(normal) || normal !== name.trim().toLowerCase())
    return `"${name}" is the name of a built-in tool`;
  if (taken.has(normal)) return `"${name}" is already registered by another plugin tool`;
  return undefined;
}

function isTool(value: unknown): value is AnyAgentTool {
  const tool = value as AnyAgentTool | undefined;
  return typeof tool?.name === "string" && typeof tool.execute === "function";
}

/** The plugin tools of one run, clashes refused (logged with the plugin id). */
export function resolvePluginTools(params: {
  tools: readonly PluginToolRegistration[];
  ctx: PluginToolContext;
  logger: Logger;
}): AnyAgentTool[] {
  const taken = new Set<string>();
  const out: AnyAgentTool[] = [];
  for (const item of params.tools) {
    let made: unknown;
    try {
      made = typeof item.tool === "function" ? item.tool(params.ctx) : item.tool;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      params.logger.warn({ plugin: item.pluginId, error }, "plugin tool factory failed; skipped");
      continue;
    }
    for (const tool of (Array.isArray(made) ? made : [made]).filter(isTool)) {
      const clash = toolNameClash(tool.name, taken);
      if (clash) {
        params.logger.warn(
          { plugin: item.pluginId, tool: tool.name },
          `plugin tool refused: ${clash}`,
        );
        continue;
      }
      taken.add(normalizeToolName(tool.name));
      out.push(tool);
    }
  }
  return out;
}

/** Wraps each tool for `before_tool_call` / `after_tool_call` (the tools unchanged when no plugin
 *  registered either). */
export function withToolHooks(
  tools: AnyAgentTool[],
  hooks: PluginHookRunner,
  ctx: PluginHookAgentContext & { now: () => number },
): AnyAgentTool[] {
  if (!hooks.has("before_tool_call") && !hooks.has("after_tool_call")) return tools;
  const { now, ...base } = ctx;
  return tools.map((tool) => ({
    ...tool,
    async execute(toolCallId, params, signal, onUpdate) {
      const toolCtx = { ...base, toolName: tool.name, toolCallId };
      const event = {
        toolName: tool.name,
        params: params as Record<string, unknown>,
        toolCallId,
        ...(base.runId ? { runId: base.runId } : {}),
      };
      const decision = await hooks.beforeToolCall(event, toolCtx);
      if (decision.blocked) {
        throw new ToolError(`Tool call blocked by plugin ${decision.pluginId}: ${decision.reason}`);
      }
      const started = now();
      const after = (outcome: { result?: unknown; error?: string }) =>
        void hooks.observe(
          "after_tool_call",
          { ...event, params: decision.params, ...outcome, durationMs: now() - started },
          toolCtx,
        );
      try {
        const result = await tool.execute(toolCallId, decision.params, signal, onUpdate);
        after({ result });
        return result;
      } catch (err) {
        after({ error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },
  }));
}
