// The message body an agent sees: the text, plus a `[Replying to <sender>: <body>]` block when the
// message quotes another one (same on every channel), plus the sender's name in groups.
import type { ChannelInbound } from "../types.js";

/** Display name of a sender: name, @username, else id. */
export function senderLabel(sender: ChannelInbound["sender"]): string {
  if (sender.name) return sender.name;
  if (sender.username) return `@${sender.username.replace(/^@/, "")}`;
  return sender.id;
}

/** The quoted-message block, or undefined when the message quotes nothing. */
export function replyContextBlock(message: ChannelInbound): string | undefined {
  const reply = message.replyTo;
  if (!reply) return undefined;
  const who = reply.sender ?? "unknown";
  const body = (reply.body ?? "").trim();
  return body ? `[Replying to ${who}: ${body}]` : `[Replying to ${who}]`;
}

/** The body handed to the agent: text, then the reply block; in groups prefixed with the sender. */
export function formatInboundBody(message: ChannelInbound): string {
  const block = replyContextBlock(message);
  const text = block ? `${message.text}\n\n${block}` : message.text;
  return message.peer.kind === "direct" ? text : `${senderLabel(message.sender)}: ${text}`;
}
