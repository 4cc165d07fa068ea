// What a gateway did with Telegram messages, as the fake Bot API and the gateway report it: the
// sendMessage calls replying to a message, and the delivery queue's dead letters and uncertain parts
// (`channels.failures.list`).
import type { FakeTelegram, FakeTelegramCall } from "./fake-telegram.js";
import { connectedClient } from "./gateway-child.js";
import { type Loose, payloadOf } from "./gateway-sandbox.js";

/** sendMessage calls replying to Telegram message `messageId`. */
export function repliesTo(fake: FakeTelegram, messageId: number): FakeTelegramCall[] {
  return fake
    .callsOf("sendMessage")
    .filter((c) => (c.params.reply_parameters as Loose | undefined)?.message_id === messageId);
}

/** The entries of `channels.failures.list` on the gateway at `url`. */
export async function deliveryEntries(url: string): Promise<Loose[]> {
  const client = await connectedClient(url);
  try {
    return payloadOf(await client.request("channels.failures.list", {})).entries as Loose[];
  } finally {
    client.close();
  }
}

/** Telegram message ids whose reply is reported as uncertain (`channels.failures.list`). */
export async function uncertainReplies(url: string): Promise<Set<number>> {
  const entries = await deliveryEntries(url);
  return new Set(entries.filter((e) => e.state === "uncertain").map((e) => Number(e.replyToId)));
}
