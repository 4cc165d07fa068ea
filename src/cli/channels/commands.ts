// The `pincer channels` family (list, status, failures list|retry|drop, add, login, logout) and
// `pincer message send`. Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";
import { gatewayClientOptions } from "../gateway-client-flags.js";

/** `pincer channels`. */
export const channelsGroup = {
  path: ["channels"],
  description: "chat channels (Telegram, …): accounts, status, credentials",
} as const;
/** `pincer channels failures`. */
export const failuresGroup = {
  path: ["channels", "failures"],
  description:
    "replies that could not be delivered (or whose fate is unknown), and retries waiting",
} as const;
/** `pincer message`. */
export const messageGroup = {
  path: ["message"],
  description: "send messages through a channel",
} as const;

/** Options of `pincer channels list`. */
export const listOptions = { json: flag("print JSON") };
/** Options of `pincer channels status`. */
export const statusOptions = {
  probe: flag("ask every account's platform who we are"),
  ...gatewayClientOptions,
};
/** Options of `pincer channels failures list`. */
export const failuresListOptions = gatewayClientOptions;
/** Options of `pincer channels failures retry` and `… drop`. */
export const failuresActionOptions = {
  all: flag("every dead letter"),
  ...gatewayClientOptions,
};
/** Options of `pincer channels add`. */
export const addOptions = {
  channel: value("<id>", "channel, e.g. telegram", { required: true }),
  account: value("<id>", "account id (default: default; signal: the number, +15551234567)"),
  tokenStdin: flag("read the token(s) from standard input (Slack: one per line)"),
  mode: value("<mode>", "slack: socket (default) or http"),
  httpUrl: value("<url>", "signal: a running signal-cli daemon (else Pincer starts signal-cli)"),
  json: flag("print JSON"),
};
/** Options of `pincer channels login`. */
export const loginOptions = {
  channel: value("<id>", "channel, e.g. whatsapp", { required: true }),
  account: value("<id>", "account id (default: the channel's default account)"),
  force: flag("link again even when the account is already linked"),
  ...gatewayClientOptions,
};
/** Options of `pincer channels logout`. */
export const logoutOptions = {
  channel: value("<id>", "channel, e.g. whatsapp", { required: true }),
  account: value("<id>", "account id (default: the channel's default account)"),
  ...gatewayClientOptions,
};
/** Options of `pincer message send`. */
export const messageSendOptions = {
  channel: value("<id>", "channel, e.g. telegram", { required: true }),
  account: value("<id>", "account id (default: the channel's default account)"),
  to: value("<target>", "peer: a user id, or group:<id> / channel:<id>", {
    short: "-t",
    required: true,
  }),
  target: value("<target>", "alias of --to"),
  message: value("<text>", "message text (Markdown)", { short: "-m" }),
  media: value("<url>", "attach a media URL or file path"),
  threadId: value("<id>", "thread / forum topic id"),
  replyTo: value("<id>", "platform message id to reply to"),
  ...gatewayClientOptions,
};

const failureIds = [
  { name: "ids", description: "entry ids from `pincer channels failures`", variadic: true },
];

/** Every `pincer channels` and `pincer message` command, in help order. */
export const channelsCommands = [
  defineCommand({
    path: ["channels", "list"],
    description: "configured channels and accounts (from the config)",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["channels", "status"],
    description: "live account status from the running gateway (config only when it is down)",
    options: statusOptions,
    run: lazyRun(() => import("./status.js")),
  }),
  defineCommand({
    path: ["channels", "failures", "list"],
    isDefault: true,
    description: "dead letters, uncertain deliveries and parts waiting for a retry",
    options: failuresListOptions,
    run: lazyRun(() => import("./failures.js")),
  }),
  defineCommand({
    path: ["channels", "failures", "retry"],
    description: "put dead letters back in the queue (an uncertain one may then arrive twice)",
    arguments: failureIds,
    options: failuresActionOptions,
    run: lazyRun(() => import("./failures-action.js").then((m) => ({ run: m.retry }))),
  }),
  defineCommand({
    path: ["channels", "failures", "drop"],
    description: "remove dead letters (or a waiting part) for good",
    arguments: failureIds,
    options: failuresActionOptions,
    run: lazyRun(() => import("./failures-action.js").then((m) => ({ run: m.drop }))),
  }),
  defineCommand({
    path: ["channels", "add"],
    description: "add a channel account's bot token to the config (comments kept)",
    options: addOptions,
    run: lazyRun(() => import("./add.js")),
  }),
  defineCommand({
    path: ["channels", "login"],
    description:
      "link an account by QR code (WhatsApp), through the running gateway when there is one",
    options: loginOptions,
    run: lazyRun(() => import("./login.js")),
  }),
  defineCommand({
    path: ["channels", "logout"],
    description: "unlink an account and remove its credentials (through the gateway when it runs)",
    options: logoutOptions,
    run: lazyRun(() => import("./logout.js")),
  }),
  defineCommand({
    path: ["message", "send"],
    description: "send a message through the running gateway",
    options: messageSendOptions,
    run: lazyRun(() => import("./message-send.js")),
  }),
];
