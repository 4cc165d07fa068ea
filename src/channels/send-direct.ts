// The gateway's `send`: an operator-initiated message to a channel target, delivered through the
// same path as replies (media policy, the durable delivery queue: chunking, retries, failure log and
// `delivery.failed`). Parts still waiting out a retry when it answers are listed as `queued`. Local
// media must come from the default agent's workspace (or the channel's mediaLocalRoots), as in replies;
// a refused file fails the whole request (INVALID_REQUEST), nothing is sent.
import type { StatePaths } from "../config/paths.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { resolveDefaultAgentId } from "../routing/index.js";
import { channelSection, configuredChannelIds } from "./account-config.js";
import type { Deliverer } from "./delivery/deliver.js";
import { resolveMediaPolicy } from "./delivery/media-policy.js";
import { planReplyMessages } from "./delivery/outbound-plan.js";
import { screenReplyMedia } from "./delivery/screen-media.js";
import { parsePeerTarget } from "./inbound/session-origin.js";
import type { ChannelAccountRuntime, ChannelCapabilities, Logger } from "./types.js";

/** What `send` asks for. */
export interface SendRequest {
  to: string;
  message?: string;
  channel?: string;
  accountId?: string;
  mediaUrls?: string[];
  threadId?: string;
  replyToId?: string;
}

/** What `send` answers: the ids of the sent messages, or why nothing (or not all) was sent. */
export type SendResponse =
  | {
      ok: true;
      channel: string;
      accountId: string;
      to: string;
      messageId?: string;
      messageIds: string[];
      /** Parts waiting in the delivery queue for a retry (sent later, or dead-lettered visibly). */
      queued?: string[];
    }
  | { ok: false; kind: "invalid" | "unavailable" | "failed"; error: string };

/** Inputs of {@link sendDirect}. */
export interface SendDirectParams {
  request: SendRequest;
  config: OpenClawConfig;
  accountRuntime: (channel: string, accountId: string) => ChannelAccountRuntime | undefined;
  runningAccounts: (channel: string) => string[];
  capabilities: (channel: string) => ChannelCapabilities | undefined;
  deliveries: Deliverer;
  /** The gateway's state paths (for the media policy); asked only when a local file is attached. */
  statePaths: () => Promise<StatePaths>;
  log: Logger;
}

function pickChannel(request: SendRequest, config: OpenClawConfig): string | { error: string } {
  if (request.channel) return request.channel.trim().toLowerCase();
  const configured = configuredChannelIds(config);
  if (configured.length === 1) return configured[0]!;
  return configured.length === 0
    ? { error: "Channel is required (no configured channels detected)" }
    : { error: `Channel is required (configured: ${configured.join(", ")})` };
}

/** Sends one message (chunked as needed) through a running account. */
export async function sendDirect(params: SendDirectParams): Promise<SendResponse> {
  const { request } = params;
  const channel = pickChannel(request, params.config);
  if (typeof channel !== "string") return { ok: false, kind: "invalid", error: channel.error };
  const running = params.runningAccounts(channel);
  const preferred = channelSection(params.config, channel).defaultAccount;
  const accountId =
    request.accountId ??
    (typeof preferred === "string" && running.includes(preferred) ? preferred : undefined) ??
    (running.includes("default") ? "default" : running[0]);
  const runtime = accountId ? params.accountRuntime(channel, accountId) : undefined;
  if (!accountId || !runtime) {
    const which = request.accountId ? `account "${request.accountId}" of ` : "an account of ";
    return { ok: false, kind: "unavailable", error: `no running ${which}channel "${channel}"` };
  }
  const text = request.message ?? "";
  const media = request.mediaUrls ?? [];
  if (text.trim() === "" && media.length === 0) {
    return { ok: false, kind: "invalid", error: "message or mediaUrl is required" };
  }
  const capabilities = params.capabilities(channel);
  const { payloads, refused } = await screenReplyMedia({
    payloads: [{ text, media, voice: false }],
    policy: async () =>
      resolveMediaPolicy({
        cfg: params.config,
        paths: await params.statePaths(),
        agentId: resolveDefaultAgentId(params.config),
        channel,
        accountId,
      }),
    log: params.log,
    context: { channel, accountId, method: "send" },
  });
  // An explicit request gets a clear error instead of a partial send (a reply gets a note instead).
  if (refused.length > 0) {
    const reasons = refused.map((item) => `${item.ref}: ${item.reason}`).join("; ");
    return { ok: false, kind: "invalid", error: `media refused by the media policy (${reasons})` };
  }
  const messages = planReplyMessages({
    payloads,
    target: {
      accountId,
      peer: parsePeerTarget(request.to),
      ...(request.threadId ? { threadId: request.threadId } : {}),
      ...(request.replyToId ? { replyToId: request.replyToId } : {}),
    },
    maxTextLength: capabilities?.maxTextLength ?? 4000,
    replyToMode: request.replyToId ? "first" : "off",
    ...(capabilities ? { media: capabilities.media } : {}),
  });
  const report = await params.deliveries.deliver({ channel, accountId, messages });
  if (report.failed.length > 0) {
    const sent = report.sent.length;
    return {
      ok: false,
      kind: "failed",
      error: `${report.failed[0]!.error} (${sent} of ${messages.length} sent)`,
    };
  }
  const messageIds = report.sent.map((receipt) => receipt.messageId);
  return {
    ok: true,
    channel,
    accountId,
    to: request.to,
    messageId: messageIds.at(-1),
    messageIds,
    ...(report.queued.length ? { queued: report.queued } : {}),
  };
}
