// The credential and connection keys every channel shape shares (`channels.ts`); each channel's
// adapter makes the ones it reads real in its own shape, the rest stay compat-marked.
import { Type } from "typebox";
import { compatOptional, SecretRefSchema } from "./common.js";

/** Credentials and connection settings (which ones apply depends on the channel). */
export const channelCredentialProps = {
  botToken: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], {
      description: "Bot token (Telegram, Slack, ...).",
    }),
  ),
  tokenFile: Type.Optional(Type.String({ description: "File holding the bot token." })),
  apiRoot: Type.Optional(
    Type.String({ description: "Bot API root for a self-hosted server (Telegram)." }),
  ),
  timeoutSeconds: Type.Optional(
    Type.Number({ minimum: 0, description: "Timeout of one API request (s; Telegram)." }),
  ),
  token: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Bot token (Discord, ...)." }),
    "issue 16 (Discord)",
  ),
  appToken: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], {
      description: "App-level token (Slack socket mode).",
    }),
    "issue 16 (Slack)",
  ),
  userToken: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "User token (Slack)." }),
    "issue 16 (Slack)",
  ),
  signingSecret: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], {
      description: "Request signing secret (Slack HTTP mode).",
    }),
    "issue 16 (Slack)",
  ),
  webhookSecret: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Webhook secret." }),
    "no issue yet: Telegram webhook mode",
  ),
  webhookUrl: compatOptional(
    Type.String({ description: "Public webhook URL." }),
    "no issue yet: Telegram webhook mode",
  ),
  webhookPath: compatOptional(
    Type.String({ description: "Local webhook path." }),
    "no issue yet: Telegram webhook mode",
  ),
  accessToken: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Access token (Matrix, ...)." }),
    "no issue yet: Matrix",
  ),
  password: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Account password." }),
    "read by BlueBubbles only (channels.bluebubbles)",
  ),
  apiKey: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "API key." }),
    "no issue yet: no channel reads it",
  ),
  homeserver: compatOptional(
    Type.String({ description: "Matrix homeserver URL." }),
    "no issue yet: Matrix",
  ),
  userId: compatOptional(Type.String({ description: "Bot user id." }), "no issue yet: Matrix"),
  account: compatOptional(
    Type.String({ description: "Signal account (E.164)." }),
    "read by Signal only (channels.signal)",
  ),
  httpUrl: compatOptional(
    Type.String({ description: "Daemon HTTP URL (signal-cli)." }),
    "read by Signal only (channels.signal)",
  ),
  cliPath: compatOptional(
    Type.String({ description: "Path to the channel CLI." }),
    "read by Signal (channels.signal) and iMessage (channels.imessage) only",
  ),
  dbPath: compatOptional(
    Type.String({ description: "Path to the message database." }),
    "read by iMessage (channels.imessage) only",
  ),
  appId: compatOptional(
    Type.String({ description: "App id (MS Teams, ...)." }),
    "no issue yet: MS Teams",
  ),
  appPassword: compatOptional(
    Type.Union([Type.String(), SecretRefSchema], { description: "App password / client secret." }),
    "no issue yet: MS Teams",
  ),
  tenantId: compatOptional(Type.String({ description: "Tenant id." }), "no issue yet: MS Teams"),
  serviceAccountFile: compatOptional(
    Type.String({ description: "Service account JSON file." }),
    "no issue yet: Google Chat",
  ),
  proxy: compatOptional(
    Type.String({ description: "HTTP proxy URL." }),
    "no issue yet: channel proxy",
  ),
  mode: compatOptional(
    Type.String({ description: "Connection mode (e.g. Slack socket|http)." }),
    "issue 16 (Slack socket/http mode)",
  ),
};
