// Verbose channel turns: while the run goes, each tool call becomes a short message of its own
// ("🛠️ exec: `ls -la`"), and with verbose full each tool result too, sent through the durable
// delivery queue before the reply (one queue per conversation keeps the order). Each message is
// recorded under its own key (run id + tool call id), never under the inbound message's key: it does
// not count as answering the message (a replay after a crash still runs and answers it), and a
// replayed run that meets the same tool call again finds it recorded and does not send it twice.
import type { OpenClawConfig } from "../protocol/config/index.js";
import {
  resolveDisplayLevels,
  toolCallText,
  toolResultText,
  type VerboseLevel,
} from "../runtime/output/index.js";
import type { RunEvent } from "../runtime/run/index.js";
import type { SessionStoreRegistry } from "../sessions/index.js";
import type { DeliveryReport } from "./delivery/deliver.js";
import type { DeliveryQueue } from "./delivery/delivery-queue.js";
import { planReplyMessages } from "./delivery/outbound-plan.js";
import { replyTextLimit } from "./delivery/text-limit.js";
import type {
  ChannelAccountConfig,
  ChannelCapabilities,
  ChannelInbound,
  Logger,
  OutboundTarget,
} from "./types.js";

/** Called with each event of a run as it happens. */
export type RunEventListener = (event: RunEvent) => void;

/** The delivery-queue key a tool message of a run is recorded under. */
export function toolProgressKey(runId: string, toolCallId: string, kind: "call" | "result") {
  return `verbose\u0000${runId}\u0000${toolCallId}\u0000${kind}`;
}

/** Where a turn's tool messages go and how they are sent. */
export interface ToolProgressParams {
  level: VerboseLevel;
  deliveries: Pick<DeliveryQueue, "deliver" | "covered">;
  channel: string;
  accountId: string;
  /** The conversation (never quoting: the reply quotes the message). */
  target: OutboundTarget;
  agentId: string;
  sessionKey: string;
  runId: string;
  maxTextLength: number;
  log: Logger;
  /** Registers a delivery in flight (shutdown waits for it). */
  track: (delivery: Promise<DeliveryReport | undefined>) => void;
}

/** The run-event listener of one turn; a no-op when verbose is off. */
export function createToolProgress(params: ToolProgressParams): RunEventListener {
  const { level } = params;
  if (level === "off") return () => {};
  const send = (key: string, text: string) => {
    // A replay of the run meeting a tool call it already reported: sent once.
    if (params.deliveries.covered(key).length > 0) return;
    const messages = planReplyMessages({
      payloads: [{ text, media: [], voice: false }],
      target: params.target,
      maxTextLength: params.maxTextLength,
      replyToMode: "off",
    });
    const { channel, accountId, agentId, sessionKey, runId } = params;
    const delivering = params.deliveries
      .deliver({ channel, accountId, messages, inboundKeys: [key], agentId, sessionKey, runId })
      .catch((err: unknown) => {
        params.log.error({ channel, accountId, runId, error: String(err) }, "tool message failed");
        return undefined;
      });
    params.track(delivering);
  };
  return (event) => {
    if (event.type === "tool_start") {
      send(toolProgressKey(params.runId, event.toolCallId, "call"), toolCallText(event));
    } else if (event.type === "tool_end" && level === "full") {
      const text = toolResultText({ ...event, result: event.result });
      send(toolProgressKey(params.runId, event.toolCallId, "result"), text);
    }
  };
}

/** What a channel turn's tool messages are set up from (the dispatcher's deps). */
export interface TurnToolProgressDeps {
  config: () => OpenClawConfig;
  stores: SessionStoreRegistry;
  capabilities: (channel: string) => ChannelCapabilities | undefined;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  deliveries: Pick<DeliveryQueue, "deliver" | "covered">;
  log: Logger;
}

/** The listener of a channel turn: its session's verbose level (read as the turn starts), the
 *  conversation of its message, the account's text limit. */
export function turnToolProgress(
  deps: TurnToolProgressDeps,
  turn: {
    inbound: ChannelInbound;
    agentId: string;
    sessionKey: string;
    runId: string;
    track: ToolProgressParams["track"];
  },
): RunEventListener {
  const { channel, accountId, peer, threadId } = turn.inbound;
  const entry = deps.stores.forAgent(turn.agentId).get(turn.sessionKey);
  const level = resolveDisplayLevels({ entry, config: deps.config() }).verbose;
  return createToolProgress({
    level,
    deliveries: deps.deliveries,
    channel,
    accountId,
    target: { accountId, peer, ...(threadId ? { threadId } : {}) },
    agentId: turn.agentId,
    sessionKey: turn.sessionKey,
    runId: turn.runId,
    maxTextLength: replyTextLimit(
      deps.capabilities(channel),
      deps.accountConfig(channel, accountId),
    ),
    log: deps.log,
    track: turn.track,
  });
}
