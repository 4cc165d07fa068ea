// The keys a WhatsApp account on the Web transport (Baileys) reads, spread into the shared channel
// shape (`channels.ts`) so they validate at the channel level and per account.
import { type Static, Type } from "typebox";

/** `ackReaction`: an emoji reaction on each accepted inbound message (OpenClaw's shape). */
export const WhatsAppAckReactionSchema = Type.Object(
  {
    emoji: Type.Optional(Type.String({ description: 'Reaction emoji ("" = off).' })),
    direct: Type.Optional(Type.Boolean({ description: "React in direct chats (default true)." })),
    group: Type.Optional(
      Type.Union([Type.Literal("always"), Type.Literal("mentions"), Type.Literal("never")], {
        description:
          "React in groups: always, mentions (default: messages that mention this number natively or reply to it; a mention-pattern match is not known yet when the reaction goes out) or never.",
      }),
    ),
  },
  { additionalProperties: false, description: "Acknowledgement reaction (WhatsApp)." },
);
/** Static type of {@link WhatsAppAckReactionSchema}. */
export type WhatsAppAckReaction = Static<typeof WhatsAppAckReactionSchema>;

/** WhatsApp Web account keys: the auth dir, self-chat, read receipts, ack reaction (`transport`
 *  is in `whatsapp-cloud.ts`, shared by both transports). */
export const whatsAppWebProps = {
  authDir: Type.Optional(
    Type.String({
      description:
        "WhatsApp Web auth state dir (default <stateDir>/credentials/whatsapp/<account>).",
    }),
  ),
  selfChatMode: Type.Optional(
    Type.Boolean({
      description:
        "Answer your own messages in the chat with your own number (WhatsApp; default: on when allowFrom names your number).",
    }),
  ),
  sendReadReceipts: Type.Optional(
    Type.Boolean({ description: "Mark accepted messages read (WhatsApp; default true)." }),
  ),
  ackReaction: Type.Optional(WhatsAppAckReactionSchema),
};
