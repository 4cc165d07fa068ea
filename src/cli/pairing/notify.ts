// `pairing approve --notify`: tells the approved sender, in the same channel and account, that they may
// now talk to the agent. The CLI holds no channel connection, so the message goes through the running
// gateway's `send` (the delivery path of agent replies: chunking, retries, the delivery queue).
import { randomUUID } from "node:crypto";
import { type CliContext, CliError } from "../command-context.js";
import {
  connectForCli,
  type GatewayClientFlags,
  requestFailure,
  resolveGatewayTarget,
} from "../gateway-client-options.js";

/** The text an approved sender receives. */
export const PAIRING_APPROVED_MESSAGE =
  "Access approved: you can now message this assistant here. Send a message to start.";

/** What happened to the notification: sent (platform message ids) or not, with the reason. */
export type PairingNotifyResult =
  | { notified: true; messageIds: string[] }
  | { notified: false; error: string };

/** Sends {@link PAIRING_APPROVED_MESSAGE} to `to` on `channel`/`accountId` through the gateway. */
export async function notifyApprovedSender(
  ctx: CliContext,
  params: { channel: string; accountId: string; to: string; flags: GatewayClientFlags },
): Promise<PairingNotifyResult> {
  try {
    const target = resolveGatewayTarget(ctx, params.flags);
    const client = await connectForCli(ctx, target, {
      hint: "the notification needs the running gateway (pincer gateway run)",
    });
    try {
      const result = (await client.request("send", {
        to: params.to,
        channel: params.channel,
        accountId: params.accountId,
        message: PAIRING_APPROVED_MESSAGE,
        idempotencyKey: randomUUID(),
      })) as { messageIds?: string[] };
      return { notified: true, messageIds: result.messageIds ?? [] };
    } catch (err) {
      throw requestFailure(err, "send");
    } finally {
      await client.close();
    }
  } catch (err) {
    if (err instanceof CliError) return { notified: false, error: err.message };
    throw err;
  }
}
