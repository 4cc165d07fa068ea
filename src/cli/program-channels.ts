// The channel commands of the `pincer` tree: `channels list|status|failures|add`, `message send` and
// `pairing list|approve|reject`. Registered by program.ts; each action loads its module on demand.
import type { Command } from "commander";

/** What program.ts hands over: the lazy action wrapper and the gateway-client option adder. */
export interface ChannelCommandTools {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors program.ts's lazy loader signature.
  lazy: (load: () => Promise<{ run: any }>) => (...args: unknown[]) => Promise<void>;
  withGatewayClient: (cmd: Command) => Command;
}

/** Adds the channel, message and pairing commands to `program`. */
export function registerChannelCommands(program: Command, tools: ChannelCommandTools): void {
  const { lazy, withGatewayClient } = tools;
  const channels = program
    .command("channels")
    .description("chat channels (Telegram, …): accounts, status, credentials");
  channels
    .command("list")
    .description("configured channels and accounts (from the config)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./channels-list.js")));
  withGatewayClient(
    channels
      .command("status")
      .description("live account status from the running gateway (config only when it is down)")
      .option("--probe", "ask every account's platform who we are"),
  ).action(lazy(() => import("./channels-status.js")));
  const failures = channels
    .command("failures")
    .description(
      "replies that could not be delivered (or whose fate is unknown), and retries waiting",
    );
  withGatewayClient(
    failures
      .command("list", { isDefault: true })
      .description("dead letters, uncertain deliveries and parts waiting for a retry"),
  ).action(lazy(() => import("./channels-failures.js")));
  for (const [name, what] of [
    ["retry", "put dead letters back in the queue (an uncertain one may then arrive twice)"],
    ["drop", "remove dead letters (or a waiting part) for good"],
  ] as const) {
    withGatewayClient(
      failures
        .command(name)
        .description(what)
        .argument("[ids...]", "entry ids from `pincer channels failures`")
        .option("--all", "every dead letter"),
    ).action(lazy(() => import("./channels-failures-action.js").then((m) => ({ run: m[name] }))));
  }
  channels
    .command("add")
    .description("add a channel account's bot token to the config (comments kept)")
    .requiredOption("--channel <id>", "channel, e.g. telegram")
    .option("--account <id>", "account id (default: default)")
    .option("--token-stdin", "read the bot token from standard input")
    .option("--json", "print JSON")
    .action(lazy(() => import("./channels-add.js")));

  const message = program.command("message").description("send messages through a channel");
  withGatewayClient(
    message
      .command("send")
      .description("send a message through the running gateway")
      .requiredOption("--channel <id>", "channel, e.g. telegram")
      .option("--account <id>", "account id (default: the channel's default account)")
      .requiredOption("-t, --to <target>", "peer: a user id, or group:<id> / channel:<id>")
      .option("--target <target>", "alias of --to")
      .option("-m, --message <text>", "message text (Markdown)")
      .option("--media <url>", "attach a media URL or file path")
      .option("--thread-id <id>", "thread / forum topic id")
      .option("--reply-to <id>", "platform message id to reply to"),
  ).action(lazy(() => import("./message-send.js")));

  const pairing = program
    .command("pairing")
    .description("approve or reject people who asked for DM access with a pairing code");
  pairing
    .command("list", { isDefault: true })
    .description(
      "pending pairing requests (codes expire after 1 h); every channel unless one is given",
    )
    .argument("[channel]", "channel, e.g. telegram (or --channel)")
    .option("--channel <id>", "only this channel")
    .option("--account <id>", "only this account of the channel")
    .option("--json", "print JSON")
    .action(lazy(() => import("./pairing-list.js")));
  withGatewayClient(
    pairing
      .command("approve")
      .description("allow the sender of a pairing code to talk to the agent (no restart needed)")
      .argument("<codeOrChannel>", "the 8-character code, or the channel followed by the code")
      .argument("[code]", "the code, when the channel comes first")
      .option("--channel <id>", "channel of the code (needed only when the code is ambiguous)")
      .option("--account <id>", "account of the code (checked; narrows an ambiguous code)")
      .option("--notify", "tell the sender in the same channel, through the running gateway"),
  ).action(lazy(() => import("./pairing-approve.js")));
  pairing
    .command("reject")
    .description("drop a pending pairing code")
    .argument("<codeOrChannel>", "the code, or the channel followed by the code")
    .argument("[code]", "the code, when the channel comes first")
    .option("--channel <id>", "channel of the code")
    .option("--account <id>", "account of the code")
    .option("--json", "print JSON")
    .action(lazy(() => import("./pairing-reject.js")));
}
