// The channel message hooks: `message_received` for each new inbound message, and around every
// delivery `message_sending` (a part's text rewritten, or the part dropped) then `message_sent`
// (each part sent, or failed). A delivery whose every part was cancelled sends nothing and reports
// nothing failed: its message counts as answered.
import type { DeliverParams, DeliveryReport } from "../channels/delivery/deliver.js";
import type { ChannelInbound, OutboundMessage } from "../channels/types.js";
import type { PluginHookRunner } from "./hook-runner.js";

/** Tells `message_received` about an inbound message (without waiting for the handlers). */
export function observeInbound(hooks: PluginHookRunner, message: ChannelInbound): void {
  if (!hooks.has("message_received")) return;
  void hooks.observe(
    "message_received",
    {
      from: message.sender.id,
      content: message.text,
      timestamp: message.timestamp,
      metadata: {
        messageId: message.messageId,
        senderName: message.sender.name,
        senderUsername: message.sender.username,
        ...(message.threadId ? { threadId: message.threadId } : {}),
      },
    },
    { channelId: message.channel, accountId: message.accountId, conversationId: message.peer.id },
  );
}

/** Wraps a deliverer's `deliver` with the sending and sent hooks (unchanged without either). */
export function withMessageHooks<
  T extends { deliver(params: DeliverParams): Promise<DeliveryReport> },
>(deliveries: T, hooks: PluginHookRunner | undefined): T {
  if (!hooks || (!hooks.has("message_sending") && !hooks.has("message_sent"))) return deliveries;
  const deliver = async (params: DeliverParams): Promise<DeliveryReport> => {
    const kept: OutboundMessage[] = [];
    for (const message of params.messages) {
      const ctx = {
        channelId: params.channel,
        accountId: params.accountId,
        conversationId: message.target.peer.id,
      };
      const metadata = {
        ...(params.sessionKey ? { sessionKey: params.sessionKey } : {}),
        ...(params.agentId ? { agentId: params.agentId } : {}),
        ...(params.runId ? { runId: params.runId } : {}),
      };
      const event = { to: message.target.peer.id, content: message.text ?? "", metadata };
      const decision = await hooks.messageSending(event, ctx);
      if (decision.cancel) continue;
      const changed = decision.content !== (message.text ?? "");
      kept.push(changed ? { ...message, text: decision.content } : message);
    }
    if (kept.length === 0) return { sent: [], failed: [], queued: [] };
    const report = await deliveries.deliver({ ...params, messages: kept });
    if (hooks.has("message_sent")) {
      // Parts go out in order: the first `sent.length` were sent, the failed ones follow.
      const failedError = report.failed[0]?.error;
      kept.forEach((message, index) => {
        if (index >= report.sent.length + report.failed.length) return;
        const success = index < report.sent.length;
        void hooks.observe(
          "message_sent",
          {
            to: message.target.peer.id,
            content: message.text ?? "",
            success,
            ...(!success && failedError ? { error: failedError } : {}),
          },
          {
            channelId: params.channel,
            accountId: params.accountId,
            conversationId: message.target.peer.id,
          },
        );
      });
    }
    return report;
  };
  return Object.assign(Object.create(Object.getPrototypeOf(deliveries)), deliveries, { deliver });
}
