// Delivery of a heartbeat's non-OK reply to a chat channel, per the agent's `heartbeat.target`:
// "last" (default) sends to where the heartbeat session last talked (its lastChannel / lastTo /
// lastAccountId / lastThreadId), "none" keeps the reply in the transcript only, any other value is a
// channel id and needs `heartbeat.to`. Sends go through the channel host's `send` (same delivery path).
import type { GatewayCore } from "../core.js";
import type { HeartbeatPlan } from "./settings.js";

/** The `deliver` callback of the heartbeat scheduler, bound to the gateway's channels. */
export function createHeartbeatDelivery(
  core: Pick<GatewayCore, "channels" | "runtime" | "logger">,
) {
  return async (plan: HeartbeatPlan, text: string): Promise<void> => {
    if (plan.target === "none") return;
    const host = core.channels.host;
    if (plan.target === "last") {
      const entry = core.runtime.stores.forAgent(plan.agentId).get(plan.sessionKey) as
        | { lastChannel?: string; lastTo?: string; lastAccountId?: string; lastThreadId?: string }
        | undefined;
      if (!host || !entry?.lastChannel || !entry.lastTo) {
        core.logger.info(
          { agentId: plan.agentId, sessionKey: plan.sessionKey },
          "heartbeat reply kept in the transcript: no channel has used this session",
        );
        return;
      }
      const sent = await host.send({
        channel: entry.lastChannel,
        to: entry.lastTo,
        message: text,
        ...(entry.lastAccountId ? { accountId: entry.lastAccountId } : {}),
        ...(entry.lastThreadId ? { threadId: entry.lastThreadId } : {}),
      });
      if (!sent.ok) throw new Error(sent.error);
      return;
    }
    if (!plan.to) throw new Error(`heartbeat.target "${plan.target}" needs heartbeat.to`);
    if (!host) throw new Error(`channel "${plan.target}" is not running`);
    const sent = await host.send({
      channel: plan.target,
      to: plan.to,
      message: text,
      ...(plan.accountId ? { accountId: plan.accountId } : {}),
    });
    if (!sent.ok) throw new Error(sent.error);
  };
}
