// The `pincer pairing` family: list, approve and reject the pairing codes of people who asked for DM
// access, in OpenClaw's shapes. Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";
import { gatewayClientOptions } from "../gateway-client-flags.js";

/** `pincer pairing`. */
export const pairingGroup = {
  path: ["pairing"],
  description: "approve or reject people who asked for DM access with a pairing code",
} as const;

/** Options of `pincer pairing list`. */
export const listOptions = {
  channel: value("<id>", "only this channel"),
  account: value("<id>", "only this account of the channel"),
  json: flag("print JSON"),
};
/** Options of `pincer pairing approve`. */
export const approveOptions = {
  channel: value("<id>", "channel of the code (needed only when the code is ambiguous)"),
  account: value("<id>", "account of the code (checked; narrows an ambiguous code)"),
  notify: flag("tell the sender in the same channel, through the running gateway"),
  ...gatewayClientOptions,
};
/** Options of `pincer pairing reject`. */
export const rejectOptions = {
  channel: value("<id>", "channel of the code"),
  account: value("<id>", "account of the code"),
  json: flag("print JSON"),
};

/** Every `pincer pairing` command, in help order. */
export const pairingCommands = [
  defineCommand({
    path: ["pairing", "list"],
    isDefault: true,
    description:
      "pending pairing requests (codes expire after 1 h); every channel unless one is given",
    arguments: [{ name: "channel", description: "channel, e.g. telegram (or --channel)" }],
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["pairing", "approve"],
    description: "allow the sender of a pairing code to talk to the agent (no restart needed)",
    arguments: [
      {
        name: "codeOrChannel",
        description: "the 8-character code, or the channel followed by the code",
        required: true,
      },
      { name: "code", description: "the code, when the channel comes first" },
    ],
    options: approveOptions,
    run: lazyRun(() => import("./approve.js")),
  }),
  defineCommand({
    path: ["pairing", "reject"],
    description: "drop a pending pairing code",
    arguments: [
      {
        name: "codeOrChannel",
        description: "the code, or the channel followed by the code",
        required: true,
      },
      { name: "code", description: "the code, when the channel comes first" },
    ],
    options: rejectOptions,
    run: lazyRun(() => import("./reject.js")),
  }),
];
