// The hooks of one agent run as its loop calls them: the model override (`before_model_resolve`),
// the prompt changes (`before_prompt_build`), the plugin tools and the tool-call hooks, the
// compaction hooks, `tool_result_persist` on each tool result before it is written to the
// transcript, and `agent_end` (not awaited) once the run is over.
import type { AnyAgentTool } from "../runtime/tools/types.js";
import type { HookResults } from "./hook-runner.js";
import type {
  AfterCompactionEvent,
  AgentEndEvent,
  BeforeCompactionEvent,
  BeforeModelResolveResult,
  PluginHookAgentContext,
} from "./hook-types.js";
import type { PluginHost } from "./host.js";
import { applyPromptChanges, contentText } from "./prompt-hooks.js";
import { withToolHooks } from "./tool-hooks.js";

/** A user message as the prompt hooks see and change it. */
type PromptMessage = { content: Parameters<typeof contentText>[0] };

/** One run's hook calls. */
export interface RunHooks {
  readonly ctx: PluginHookAgentContext;
  /** A model override from the hooks (`provider/model` or a model), if any; runs the legacy
   *  `before_agent_start` (once per run: its prompt fields are kept for `buildPrompt`). */
  resolveModel(
    prompt: PromptMessage | undefined,
    messages: readonly unknown[],
  ): Promise<BeforeModelResolveResult | undefined>;
  /** The system prompt after the prompt hooks (the prompt's content changed in place). */
  buildPrompt(params: {
    systemPrompt: string;
    prompt: PromptMessage | undefined;
    messages: readonly unknown[];
  }): Promise<string>;
  /** The plugin tools of this run (before the tool policy, which the toolset applies). */
  pluginTools(): AnyAgentTool[];
  /** The run's tools with the tool-call hooks. */
  wrapTools(tools: AnyAgentTool[]): AnyAgentTool[];
  compaction(phase: "before", event: BeforeCompactionEvent): Promise<void>;
  compaction(phase: "after", event: AfterCompactionEvent): Promise<void>;
  /** The message to write: a tool result as `tool_result_persist` rewrote it; others unchanged. */
  persist<M extends { role: string }>(message: M): M;
  /** Tells `agent_end` (fire and forget). */
  end(event: AgentEndEvent): void;
}

/** The run's hooks; undefined without plugins. */
export function runHooksFor(
  host: PluginHost | undefined,
  input: PluginHookAgentContext & { agentId: string; workspaceDir: string; now: () => number },
): RunHooks | undefined {
  if (!host) return undefined;
  const { hooks } = host;
  const { now, ...ctx } = input;
  const persisting = hooks.has("tool_result_persist");
  let legacy: HookResults | undefined;
  return {
    ctx,
    async resolveModel(prompt, messages) {
      const text = prompt ? contentText(prompt.content) : "";
      if (hooks.has("before_agent_start"))
        legacy = await hooks.agentStart({ prompt: text, messages: [...messages] }, ctx);
      if (!hooks.has("before_model_resolve") && !legacy) return undefined;
      const result = await hooks.resolveModel({ prompt: text }, ctx, legacy);
      return result.modelOverride ? result : undefined;
    },
    async buildPrompt({ systemPrompt, prompt, messages }) {
      if (!hooks.has("before_prompt_build") && !hooks.has("before_agent_start"))
        return systemPrompt;
      const event = { prompt: prompt ? contentText(prompt.content) : "", messages: [...messages] };
      const result = await hooks.buildPrompt(event, ctx, legacy);
      return applyPromptChanges({ systemPrompt, prompt, result });
    },
    pluginTools: () =>
      host.tools({
        agentId: input.agentId,
        workspaceDir: input.workspaceDir,
        ...(ctx.sessionKey ? { sessionKey: ctx.sessionKey } : {}),
      }),
    wrapTools: (tools) => withToolHooks(tools, hooks, { ...ctx, now }),
    async compaction(
      phase: "before" | "after",
      event: BeforeCompactionEvent | AfterCompactionEvent,
    ) {
      if (phase === "before") await hooks.observe("before_compaction", event, ctx);
      else await hooks.observe("after_compaction", event as AfterCompactionEvent, ctx);
    },
    persist(message) {
      if (!persisting || message.role !== "toolResult") return message;
      const raw = message as unknown as Record<string, unknown>;
      const toolName = typeof raw.toolName === "string" ? raw.toolName : undefined;
      const toolCallId = typeof raw.toolCallId === "string" ? raw.toolCallId : undefined;
      const rewritten = hooks.persistToolResult(
        { message: raw, ...(toolName ? { toolName } : {}), ...(toolCallId ? { toolCallId } : {}) },
        { ...ctx, toolName: toolName ?? "", ...(toolCallId ? { toolCallId } : {}) },
      );
      return rewritten as unknown as typeof message;
    },
    end(event) {
      if (hooks.has("agent_end")) void hooks.observe("agent_end", event, ctx);
    },
  };
}
