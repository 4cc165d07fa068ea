// A finished channel turn's reply, into the durable delivery queue: media screened by the agent's
// media policy, the session's display extras added (usage footer, reasoning), planned into parts
// (chunks, quoting, media), the first text part as an edit of the turn's streamed preview.
import type { RunResult } from "../runtime/run/index.js";
import type { DeliveryReport } from "./delivery/deliver.js";
import type { DeliveryQueue } from "./delivery/delivery-queue.js";
import { resolveMediaPolicy } from "./delivery/media-policy.js";
import { planReplyMessages } from "./delivery/outbound-plan.js";
import { withReplyExtras } from "./delivery/reply-extras.js";
import { editPreviewWithReply } from "./delivery/reply-preview.js";
import { screenReplyMedia } from "./delivery/screen-media.js";
import { replyTextLimit } from "./delivery/text-limit.js";
import type { ChannelDispatcherDeps, ChannelMessage, ReplyRoute } from "./dispatch.js";
import { answeredKeys } from "./recovered-turns.js";
import type { ChannelInbound, OutboundTarget } from "./types.js";

/** Where the reply to an inbound message goes. */
export function replyTarget(inbound: ChannelInbound, quote: boolean): OutboundTarget {
  return {
    accountId: inbound.accountId,
    peer: inbound.peer,
    ...(inbound.threadId ? { threadId: inbound.threadId } : {}),
    ...(quote ? { replyToId: inbound.messageId } : {}),
  };
}

/** Inputs of {@link deliverTurnReply}. */
export interface TurnReplyParams {
  deps: Pick<
    ChannelDispatcherDeps,
    "capabilities" | "accountConfig" | "runtimeDeps" | "log" | "deliveries" | "onDeliveryState"
  > & { deliveries: Pick<DeliveryQueue, "deliver"> };
  route: ReplyRoute;
  result: RunResult;
  sessionKey: string;
  /** Every message the turn answers (their inbound keys go on the delivery). */
  answered: readonly ChannelMessage[];
  /** The streamed preview the reply's first text part edits. */
  previewId?: string | undefined;
}

/** Plans and delivers one turn's reply; undefined when the reply has nothing to send. */
export async function deliverTurnReply(
  params: TurnReplyParams,
): Promise<DeliveryReport | undefined> {
  const { deps, route, result, sessionKey } = params;
  const { channel, accountId } = route.inbound;
  const capabilities = deps.capabilities(channel);
  const config = deps.accountConfig(channel, accountId);
  const { payloads } = await screenReplyMedia({
    payloads: result.payloads,
    policy: async () => {
      const { config, paths } = await deps.runtimeDeps();
      const cfg = config.config;
      return resolveMediaPolicy({ cfg, paths, agentId: route.agentId, channel, accountId });
    },
    log: deps.log,
    context: { channel, accountId, sessionKey, runId: result.runId },
  });
  const planned = planReplyMessages({
    // The session's usage footer and reasoning: on what is sent, never in the transcript.
    payloads: withReplyExtras(payloads, result.display),
    target: replyTarget(route.inbound, true),
    maxTextLength: replyTextLimit(capabilities, config),
    ...(typeof config.replyToMode === "string" ? { replyToMode: config.replyToMode } : {}),
    ...(capabilities ? { media: capabilities.media } : {}),
  });
  const messages = editPreviewWithReply(planned, params.previewId);
  if (messages.length === 0) return undefined;
  deps.onDeliveryState?.(channel, accountId, 1);
  try {
    return await deps.deliveries.deliver({
      channel,
      accountId,
      messages,
      inboundKeys: answeredKeys(params.answered),
      agentId: route.agentId,
      sessionKey,
      runId: result.runId,
    });
  } finally {
    deps.onDeliveryState?.(channel, accountId, -1);
  }
}
