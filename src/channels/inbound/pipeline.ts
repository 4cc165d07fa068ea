// The inbound pipeline, one small step after another: dedupe → access policy (pairing) → mention
// gating (with group context) → route → chat command, or a thread's first message's sessions
// started (its thread context) → broadcast fan-out → hand-off to session + queue. Each step is its
// own module; this file only sequences them and says what happened, as a value.
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { PairingRequestResult, PairingStore } from "../pairing/pairing-store.js";
import type { ChannelAccountConfig, ChannelInbound, Logger } from "../types.js";
import { decideAccess } from "./access-policy.js";
import { type GroupHistory, prependHistory, resolveHistoryLimit } from "./group-history.js";
import type { InboundJournal } from "./inbound-journal.js";
import {
  gateMention,
  type MentionPatternCompiler,
  resolveMentionPatterns,
} from "./mention-gate.js";
import { type InboundDedupe, inboundDedupeKey } from "./redelivery-filter.js";
import { formatInboundBody, senderLabel } from "./reply-context.js";
import { type RoutedInbound, routeInbound } from "./route.js";
import { groupHistoryKeyOf, type ThreadStarts, withoutRepeats } from "./thread-start.js";

/** A message cleared for a run: its body (context prepended) and who answers it. */
export interface DispatchRequest {
  message: ChannelInbound;
  body: string;
  routed: RoutedInbound;
  /** Re-submitted from the inbound journal after a restart (its turn may have begun before). */
  replay?: boolean;
}

/** What the pipeline did with a message. */
export type InboundOutcome =
  | { status: "duplicate" }
  | { status: "dropped"; reason: string }
  | { status: "pairing"; result: PairingRequestResult }
  | { status: "context"; agentIds: string[] }
  | { status: "dispatched"; routed: RoutedInbound }
  | { status: "command"; routed: RoutedInbound };

/** What the pipeline needs; everything is passed in. */
export interface InboundPipelineDeps {
  config: () => OpenClawConfig;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  dedupe: InboundDedupe;
  /** Durable record of each message: accepted before `receive` resolves, settled when final. */
  journal: Pick<InboundJournal, "accept" | "settle">;
  history: GroupHistory;
  /** Compiles the routed agents' mention patterns (memoized per host). */
  mentionPatterns: MentionPatternCompiler;
  pairing: PairingStore;
  /** Sends the pairing-code reply to the sender (only when a code was just created). */
  replyPairing: (message: ChannelInbound, code: string) => Promise<void>;
  /** Session + queue + run + delivery for a cleared message. */
  dispatch: (request: DispatchRequest) => void;
  /** Takes a cleared message that is a chat command (answered and settled without a run). */
  command?: (request: DispatchRequest) => boolean;
  /** Told of each new message once accepted (the plugins' `message_received`). */
  onReceived?: (message: ChannelInbound) => void;
  /** Loads the transcripts of a replayed message's targets, so recovery can look for its turn
   *  (PostgreSQL keeps them out of memory until asked). */
  loadTranscripts?: (targets: readonly { agentId: string; sessionKey: string }[]) => Promise<void>;
  /** Starts the sessions of a thread's first message (`thread-start.ts`); its thread context. */
  startThread?: ThreadStarts["start"];
  log: Logger;
}

/** The pairing-code reply text. */
export function pairingReplyText(message: ChannelInbound, code: string): string {
  return [
    "Access not configured yet.",
    "",
    `Your ${message.channel} user id: ${message.sender.id}`,
    `Pairing code: ${code}`,
    "",
    "Ask the owner to approve it with:",
    `pincer pairing approve ${message.channel} ${code}`,
  ].join("\n");
}

async function pair(deps: InboundPipelineDeps, message: ChannelInbound): Promise<InboundOutcome> {
  const result = deps.pairing.request({
    channel: message.channel,
    accountId: message.accountId,
    senderId: message.sender.id,
    ...(message.sender.name ? { name: message.sender.name } : {}),
    ...(message.sender.username ? { username: message.sender.username } : {}),
  });
  // A code is sent once: a sender already pending (or refused because 3 are pending) hears nothing.
  if (result.status === "created") await deps.replyPairing(message, result.code);
  return { status: "pairing", result };
}

/**
 * Runs one inbound message through the steps. A new message is journaled as accepted first; one
 * that ends here (refused, pairing, context) is settled at once, a dispatched one by the dispatcher,
 * a command by the command step once its reply is delivered.
 * `replay` re-submits a journaled message after a restart (already deduped and accepted).
 */
export async function processInbound(
  deps: InboundPipelineDeps,
  message: ChannelInbound,
  options: { replay?: boolean } = {},
): Promise<InboundOutcome> {
  const key = inboundDedupeKey(message);
  if (!options.replay) {
    if (!deps.dedupe.firstSeen(message)) return { status: "duplicate" };
    try {
      deps.journal.accept(key, message);
    } catch (err) {
      // Not durably accepted: the adapter will redeliver it, and then it must not count as seen.
      deps.dedupe.forget(message);
      throw err;
    }
    deps.onReceived?.(message);
  }
  const outcome = await clearInbound(deps, message, options.replay === true);
  if (outcome.status === "context") deps.journal.settle(key, "context");
  else if (outcome.status !== "dispatched" && outcome.status !== "command")
    deps.journal.settle(key, "refused");
  return outcome;
}

async function clearInbound(
  deps: InboundPipelineDeps,
  message: ChannelInbound,
  replay: boolean,
): Promise<InboundOutcome> {
  const cfg = deps.config();
  const config = deps.accountConfig(message.channel, message.accountId);
  const defaults = (cfg.channels as { defaults?: { groupPolicy?: string } } | undefined)?.defaults;
  const access = decideAccess({
    message,
    config,
    approved: deps.pairing.allowFrom(message.channel, message.accountId),
    ...(defaults?.groupPolicy ? { defaultGroupPolicy: defaults.groupPolicy } : {}),
    ...(cfg.accessGroups ? { accessGroups: cfg.accessGroups } : {}),
  });
  if (access.action === "drop") return { status: "dropped", reason: access.reason };
  if (access.action === "pair") return pair(deps, message);
  const group = access.group;
  const routed = routeInbound(cfg, message);
  const agentIds = routed.targets.map((target) => target.agentId);
  const patterns = agentIds.flatMap((agentId) =>
    resolveMentionPatterns({ cfg, agentId, config, ...(group ? { group } : {}) }),
  );
  const compiled = deps.mentionPatterns([...new Set(patterns)]);
  if (compiled.invalid.length > 0) {
    deps.log.warn({ patterns: compiled.invalid }, "invalid mention patterns skipped");
  }
  const verdict = gateMention({
    message,
    config,
    patterns: compiled.regexes,
    gating: routed.mentionGating,
    ...(group ? { group } : {}),
  });
  const historyKey = groupHistoryKeyOf(message);
  const body = formatInboundBody(message);
  if (verdict === "context") {
    if (historyKey) {
      const limit = resolveHistoryLimit({ cfg, config, ...(group ? { group } : {}) });
      const entry = {
        sender: senderLabel(message.sender),
        body: message.text,
        timestamp: message.timestamp,
      };
      deps.history.record(historyKey, entry, limit);
    }
    return { status: "context", agentIds };
  }
  // A command answers itself; the group's pending context stays for the next model turn.
  const request = { message, body, routed, ...(replay ? { replay } : {}) };
  if (deps.command?.(request)) return { status: "command", routed };
  const thread = deps.startThread ? await deps.startThread({ message, routed }) : [];
  const context = withoutRepeats(thread, historyKey ? deps.history.take(historyKey) : []);
  if (replay) await deps.loadTranscripts?.(routed.targets);
  deps.dispatch({ ...request, body: prependHistory(context, body) });
  return { status: "dispatched", routed };
}
