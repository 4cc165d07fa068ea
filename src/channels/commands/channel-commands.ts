// Chat commands on the channel path: a message the pipeline cleared (access policy, mention gate,
// route) that is a command is answered here instead of being queued for a run. The reply goes
// through the durable delivery queue like a run's (quoting the command, chunked to the platform
// limit, recorded with the message's inbound key), and the message settles from that delivery, so
// a restart replaying it finds its reply recorded and neither runs it again nor loses it. A message
// addressed to another bot (`/name@OtherBot`) is taken too and settled as dropped, unanswered.
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { DeliveryQueue } from "../delivery/delivery-queue.js";
import { planReplyMessages } from "../delivery/outbound-plan.js";
import { groupEntry } from "../inbound/access-policy.js";
import type { InboundJournal } from "../inbound/inbound-journal.js";
import type { DispatchRequest } from "../inbound/pipeline.js";
import { inboundDedupeKey } from "../inbound/redelivery-filter.js";
import { replyTarget } from "../turn-reply.js";
import { coveredOutcome, turnOutcome } from "../turn-settlement.js";
import type { ChannelAccountConfig, ChannelCapabilities, Logger } from "../types.js";
import { channelAuthorizers } from "./access.js";
import { otherBotAddressed } from "./parse.js";
import type { ChatCommands } from "./service.js";

const DEFAULT_MAX_TEXT = 4000;

/** What the channel commands need; passed in by the host. */
export interface ChannelCommandsDeps {
  commands: ChatCommands;
  config: () => OpenClawConfig;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  /** Senders approved through pairing (they authorize commands as they pass the DM policy). */
  approved: (channel: string, accountId: string) => readonly string[];
  capabilities: (channel: string) => ChannelCapabilities | undefined;
  deliveries: Pick<DeliveryQueue, "deliver" | "covered">;
  journal: Pick<InboundJournal, "settle">;
  /** A message that stopped being a command before it ran (config reloaded): queued as text. */
  dispatch: (request: DispatchRequest) => void;
  log: Logger;
}

/** The channel command step. */
export interface ChannelCommands {
  /** Takes a cleared message that is a command (answered in the background); false otherwise. */
  take(request: DispatchRequest): boolean;
  /** Resolves once every command taken so far is answered (shutdown waits). */
  settled(): Promise<void>;
}

/** Creates the step. */
export function createChannelCommands(deps: ChannelCommandsDeps): ChannelCommands {
  const pending = new Set<Promise<void>>();

  const answer = async (request: DispatchRequest): Promise<void> => {
    const { message, routed } = request;
    const key = inboundDedupeKey(message);
    const { channel, accountId } = message;
    const config = deps.accountConfig(channel, accountId);
    const chatType = message.peer.kind === "direct" ? "direct" : "group";
    const group = groupEntry(config, message.peer.id, message.parentPeer?.id).entry as
      | { allowFrom?: unknown }
      | undefined;
    const accessGroups = deps.config().accessGroups;
    const authorizers = channelAuthorizers({
      chatType,
      channel,
      ...(accessGroups ? { accessGroups } : {}),
      sender: message.sender,
      allowFrom: config.allowFrom,
      approved: deps.approved(channel, accountId),
      groupAllowFrom: config.groupAllowFrom,
      groupEntryAllowFrom: group?.allowFrom,
    });
    const texts: string[] = [];
    const afterReply: Array<() => void> = [];
    const [first] = routed.targets;
    for (const target of routed.targets) {
      const reply = await deps.commands.handle({
        text: message.text,
        config: deps.config(),
        ...(message.selfUsername ? { selfUsername: message.selfUsername } : {}),
        agentId: target.agentId,
        sessionKey: target.sessionKey,
        channel,
        accountId,
        chatType,
        sender: message.sender,
        peerId: message.peer.id,
        authorizers,
      });
      if (!reply) {
        deps.dispatch(request);
        return;
      }
      const multi = routed.targets.length > 1;
      texts.push(multi ? `[${target.agentId}]\n${reply.text}` : reply.text);
      if (reply.afterReply) afterReply.push(reply.afterReply);
      // A refusal is the same for every agent of a broadcast: said once.
      if (reply.refused) break;
    }
    const capabilities = deps.capabilities(channel);
    const limit = typeof config.textChunkLimit === "number" ? config.textChunkLimit : Infinity;
    const messages = planReplyMessages({
      payloads: [{ text: texts.join("\n\n"), media: [], voice: false }],
      target: replyTarget(message, true),
      maxTextLength: Math.min(capabilities?.maxTextLength ?? DEFAULT_MAX_TEXT, limit),
      ...(typeof config.replyToMode === "string" ? { replyToMode: config.replyToMode } : {}),
    });
    const report = await deps.deliveries.deliver({
      channel,
      accountId,
      messages,
      inboundKeys: [key],
      ...(first ? { agentId: first.agentId, sessionKey: first.sessionKey } : {}),
    });
    const outcome = turnOutcome("ok", report, false);
    if (outcome) deps.journal.settle(key, outcome);
    // Only now (reply recorded, message settled): what a command does after its reply (/restart).
    for (const after of afterReply) after();
  };

  return {
    take(request) {
      const { message } = request;
      // `/name@OtherBot` is for another bot: never run, never handed to the model.
      const otherBot = otherBotAddressed(
        message.text,
        message.selfUsername ? { selfUsername: message.selfUsername } : {},
      );
      if (otherBot !== undefined) {
        const key = inboundDedupeKey(message);
        const where = { channel: message.channel, accountId: message.accountId, key, otherBot };
        deps.log.info(where, "inbound command for another bot dropped");
        deps.journal.settle(key, "dropped");
        return true;
      }
      const recognized = deps.commands.recognizes({
        text: message.text,
        config: deps.config(),
        ...(message.selfUsername ? { selfUsername: message.selfUsername } : {}),
      });
      if (!recognized) return false;
      const key = inboundDedupeKey(message);
      // A replayed command whose reply is already recorded is not run again (a reset stays one).
      const covered = request.replay ? deps.deliveries.covered(key) : [];
      if (covered.length > 0) {
        deps.journal.settle(key, coveredOutcome(covered));
        return true;
      }
      const task = answer(request)
        .catch((err: unknown) => {
          deps.log.error(
            { channel: message.channel, accountId: message.accountId, key, error: String(err) },
            "chat command reply failed",
          );
        })
        .finally(() => pending.delete(task));
      pending.add(task);
      return true;
    },
    settled: async () => {
      await Promise.allSettled([...pending]);
    },
  };
}
