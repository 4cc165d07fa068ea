// The keys an iMessage (imsg) account runs with (OpenClaw's names): the `imsg` binary, the Messages
// database it reads, how a DM is sent (iMessage, SMS or whichever works) and the region numbers
// without a country code are read in. Spread into the iMessage channel shape only, so the same names
// stay marked for channels that ignore them.
import { Type } from "typebox";

/** iMessage account keys Pincer acts on. */
export const iMessageProps = {
  cliPath: Type.Optional(
    Type.String({ description: "iMessage: the imsg binary (default imsg, found on PATH)." }),
  ),
  dbPath: Type.Optional(
    Type.String({
      description:
        "iMessage: the Messages database imsg reads (default ~/Library/Messages/chat.db).",
    }),
  ),
  service: Type.Optional(
    Type.Union([Type.Literal("imessage"), Type.Literal("sms"), Type.Literal("auto")], {
      description: "iMessage: how DMs are sent (default auto: iMessage, else SMS).",
    }),
  ),
  region: Type.Optional(
    Type.String({
      description: "iMessage: region of numbers without a country code (default US).",
    }),
  ),
  includeAttachments: Type.Optional(
    Type.Boolean({
      description: "iMessage: hand inbound attachments to the agent (default true).",
    }),
  ),
};
