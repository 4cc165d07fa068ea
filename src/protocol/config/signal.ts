// The keys a Signal account runs with (OpenClaw's names): its number, the signal-cli HTTP daemon it
// talks to (`httpUrl`, or `httpHost`/`httpPort` of a daemon Pincer starts itself from `cliPath`
// when `autoStart`), how long that start may take, and what to do with attachments, stories and
// read receipts. Spread into the Signal channel shape only, so the same names stay marked for
// channels that ignore them.
import { Type } from "typebox";
import { compatOptional } from "./common.js";

/** Signal account keys Pincer acts on. */
export const signalProps = {
  account: Type.Optional(
    Type.String({
      description:
        "Signal: the account's number (E.164, +15551234567); required when Pincer starts signal-cli.",
    }),
  ),
  httpUrl: Type.Optional(
    Type.String({
      description:
        "Signal: a running `signal-cli daemon --http` (http://127.0.0.1:8080); set, Pincer does not start one unless autoStart is true.",
    }),
  ),
  cliPath: Type.Optional(
    Type.String({ description: "Signal: the signal-cli executable autoStart runs (signal-cli)." }),
  ),
  autoStart: Type.Optional(
    Type.Boolean({
      description:
        "Signal: start `signal-cli -a <account> daemon --http <httpHost>:<httpPort>` and supervise it (default: true when httpUrl is unset).",
    }),
  ),
  httpHost: Type.Optional(Type.String({ description: "Signal: the daemon's host (127.0.0.1)." })),
  httpPort: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65535, description: "Signal: the daemon's port (8080)." }),
  ),
  startupTimeoutMs: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 120_000,
      description: "Signal: how long a started daemon may take to answer /api/v1/check (30000).",
    }),
  ),
  ignoreAttachments: Type.Optional(
    Type.Boolean({ description: "Signal: do not download inbound attachments (default false)." }),
  ),
  ignoreStories: Type.Optional(
    Type.Boolean({
      description:
        "Signal: a started daemon skips stories (--ignore-stories; default true). Stories never reach an agent.",
    }),
  ),
  sendReadReceipts: Type.Optional(
    Type.Boolean({
      description:
        "Signal: send read receipts for DMs the access policy admitted, as their reply starts (default false).",
    }),
  ),
  receiveMode: compatOptional(
    Type.Union([Type.Literal("on-start"), Type.Literal("manual")], {
      description: "Signal: signal-cli's receive mode.",
    }),
    "issue 21 (Signal): Pincer always reads the daemon's event stream (on-start)",
  ),
};
