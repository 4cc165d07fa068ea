// What a finished turn's reply shows besides its payloads, per its session's display settings: the
// usage footer (`/usage`, `messages.responseUsage`) and the model's reasoning (`/reasoning`). It rides
// on the run's result for the surfaces that show replies (channel deliveries, the chat final) and is
// never written to the transcript, so the model never sees it again.
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { type DisplaySources, formatUsageFooter, resolveDisplayLevels } from "../output/index.js";

/** The display-only extras of a reply. */
export interface ReplyDisplay {
  /** The footer line to end the reply with. */
  usageFooter?: string;
  /** The reasoning of the reply's model call, to show before it. */
  reasoning?: string;
}

/** The thinking text of an assistant message (redacted blocks left out), joined. */
export function assistantReasoning(message: AssistantMessage | undefined): string {
  if (!message) return "";
  return message.content
    .flatMap((part) =>
      part.type === "thinking" && !part.redacted && part.thinking.trim() ? [part.thinking] : [],
    )
    .join("\n\n")
    .trim();
}

/** The extras of a finished turn's reply, or undefined when its session shows none. */
export function replyDisplay(params: {
  sources: DisplaySources;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** The turn's cost in USD, summed over its model calls (0 without a cost table). */
  cost: number;
  provider?: string;
  model?: string;
  final: AssistantMessage | undefined;
}): ReplyDisplay | undefined {
  const levels = resolveDisplayLevels(params.sources);
  const usageFooter = formatUsageFooter({
    mode: levels.usage,
    usage: params.usage,
    ...(params.provider && params.model ? { modelRef: `${params.provider}/${params.model}` } : {}),
    cost: params.cost,
  });
  const reasoning = levels.reasoning === "off" ? "" : assistantReasoning(params.final);
  if (!usageFooter && !reasoning) return undefined;
  return { ...(usageFooter ? { usageFooter } : {}), ...(reasoning ? { reasoning } : {}) };
}
