// `pincer channels add --channel C [--account ID] --token-stdin`: writes
// `channels.<C>.accounts.<ID>.botToken` with the comment-preserving, validated config edit.
// Discord's one stdin line is its `token` (OpenClaw's key). Slack reads one secret per line, each
// recognised by its prefix (xoxb- botToken, xapp- appToken, xoxp- userToken; with `--mode http` an
// unprefixed line is the signing secret): socket mode needs xoxb- and xapp-, http mode xoxb- and
// the signing secret. WhatsApp has no bot token: `add` creates the account entry (left as it is
// when it exists) and points at `channels login`, which links a WhatsApp Web account by QR code.
// Signal has no token either: `--account +1555…` is the number (`channels.signal.account`), and
// `--http-url` a running signal-cli daemon (then `autoStart: false`), else Pincer starts signal-cli.

import { phoneDigits } from "../../lib/phone-number.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import type { addOptions } from "./commands.js";

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** Adds (or replaces) one account's bot token. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof addOptions>): Promise<number> {
  const channel = opts.channel.trim().toLowerCase();
  if (opts.httpUrl !== undefined && channel !== "signal")
    throw new CliError("--http-url is for signal accounts", ExitCode.usage);
  if (channel === "signal") return addSignalAccount(ctx, opts);
  const account = (opts.account ?? "default").trim();
  if (!ID.test(channel))
    throw new CliError(`--channel "${opts.channel}": expected a channel id`, ExitCode.usage);
  if (!ID.test(account))
    throw new CliError(`--account "${account}": expected letters, digits, - or _`, ExitCode.usage);
  if (opts.mode !== undefined && channel !== "slack")
    throw new CliError("--mode is for slack accounts (socket or http)", ExitCode.usage);
  if (channel === "whatsapp") return addWhatsAppAccount(ctx, { ...opts, account });
  if (!opts.tokenStdin)
    throw new CliError(
      "--token-stdin is required (the token is never taken from argv)",
      ExitCode.usage,
    );
  const input = await ctx.readStdin();
  if (channel === "slack") return addSlackAccount(ctx, { ...opts, account, input });
  const token = input.trim();
  if (token === "") throw new CliError("no token on standard input", ExitCode.usage);
  const key = channel === "discord" ? "token" : "botToken";
  return applyConfigEdits(ctx, {
    edits: [{ op: "set", path: `channels.${channel}.accounts.${account}.${key}`, value: token }],
    json: opts.json,
    summary: `added ${channel} account ${account}`,
  });
}

/** A WhatsApp account entry, to be linked next (`channels login`); a token is refused, saying why. */
function addWhatsAppAccount(
  ctx: CliContext,
  opts: { account: string; tokenStdin?: boolean; json?: boolean },
): number {
  const { account } = opts;
  const login = `pincer channels login --channel whatsapp --account ${account}`;
  if (opts.tokenStdin) {
    throw new CliError(
      `whatsapp accounts have no bot token: link a WhatsApp Web account by QR code with \`${login}\`, ` +
        'or give a Cloud API account transport: "cloud", phoneNumberId, accessToken, appSecret and verifyToken in the config',
      ExitCode.usage,
    );
  }
  const path = `channels.whatsapp.accounts.${account}`;
  const code = applyConfigEdits(ctx, {
    edits: (current) => {
      const accounts = (current as { channels?: { whatsapp?: { accounts?: unknown } } }).channels
        ?.whatsapp?.accounts;
      const exists = typeof accounts === "object" && accounts !== null && account in accounts;
      return exists ? [] : [{ op: "set", path, value: {} }];
    },
    json: opts.json,
    summary: `added whatsapp account ${account}`,
  });
  if (!opts.json) printLine(ctx, `link it: ${login}`);
  return code;
}

/** The Signal number (and daemon URL) at the channel level, OpenClaw's minimal setup. */
function addSignalAccount(
  ctx: CliContext,
  opts: { account?: string; httpUrl?: string; tokenStdin?: boolean; json?: boolean },
): number {
  if (opts.tokenStdin)
    throw new CliError(
      "signal accounts have no token: give the number with --account +15551234567 (link it first with `signal-cli link`)",
      ExitCode.usage,
    );
  const digits = phoneDigits(opts.account ?? "");
  if (digits === undefined)
    throw new CliError(
      `--account ${opts.account === undefined ? "is required" : `"${opts.account}" is not a phone number`}: signal accounts are numbers (E.164, +15551234567)`,
      ExitCode.usage,
    );
  const httpUrl = opts.httpUrl?.trim();
  if (httpUrl !== undefined && !/^https?:\/\/[^/]/i.test(httpUrl))
    throw new CliError(`--http-url "${httpUrl}": expected an http(s) URL`, ExitCode.usage);
  const edits = [
    { op: "set" as const, path: "channels.signal.account", value: `+${digits}` },
    ...(httpUrl
      ? [
          { op: "set" as const, path: "channels.signal.httpUrl", value: httpUrl },
          { op: "set" as const, path: "channels.signal.autoStart", value: false },
        ]
      : []),
  ];
  return applyConfigEdits(ctx, {
    edits,
    json: opts.json,
    summary: `added signal account +${digits}${httpUrl ? ` (daemon ${httpUrl})` : " (Pincer starts signal-cli)"}`,
  });
}

const SLACK_PREFIXES = [
  ["xoxb-", "botToken"],
  ["xapp-", "appToken"],
  ["xoxp-", "userToken"],
] as const;

/** Slack's secrets from stdin lines, by prefix; an unprefixed line is the http mode's signing secret. */
function slackSecrets(input: string, mode: "socket" | "http"): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const line of input.split(/\r?\n/).map((l) => l.trim())) {
    if (line === "") continue;
    const key = SLACK_PREFIXES.find(([prefix]) => line.startsWith(prefix))?.[1] ?? "signingSecret";
    if (key === "signingSecret" && mode !== "http")
      throw new CliError(
        "slack: a stdin line is not a token (expected xoxb-, xapp- or xoxp-; a signing secret needs --mode http)",
        ExitCode.usage,
      );
    if (secrets[key] !== undefined)
      throw new CliError(`slack: two ${key} lines on standard input`, ExitCode.usage);
    secrets[key] = line;
  }
  const needed =
    mode === "http"
      ? [
          ["botToken", "a bot token (xoxb-…)"],
          ["signingSecret", "the signing secret (a line without a token prefix)"],
        ]
      : [
          ["botToken", "a bot token (xoxb-…)"],
          ["appToken", "an app-level token (xapp-…)"],
        ];
  const missing = needed.filter(([key]) => secrets[key] === undefined).map(([, what]) => what);
  if (missing.length > 0)
    throw new CliError(
      `slack ${mode} mode needs ${needed.map(([, what]) => what).join(" and ")} on standard input, one per line; missing: ${missing.join(", ")}`,
      ExitCode.usage,
    );
  return secrets;
}

/** A Slack account from the tokens on stdin: its secrets and its mode. */
function addSlackAccount(
  ctx: CliContext,
  opts: { account: string; input: string; mode?: string; json?: boolean },
): number {
  const mode = opts.mode ?? "socket";
  if (mode !== "socket" && mode !== "http")
    throw new CliError(`--mode "${mode}": expected socket or http`, ExitCode.usage);
  const secrets = slackSecrets(opts.input, mode);
  const path = `channels.slack.accounts.${opts.account}`;
  return applyConfigEdits(ctx, {
    edits: [
      { op: "set", path: `${path}.mode`, value: mode },
      ...Object.entries(secrets).map(([key, value]) => ({
        op: "set" as const,
        path: `${path}.${key}`,
        value,
      })),
    ],
    json: opts.json,
    summary: `added slack account ${opts.account} (${mode} mode)`,
  });
}
