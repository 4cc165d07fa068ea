// The keys a Slack account runs with (OpenClaw's names): the connection mode (Socket Mode with an
// app-level token, or the Events API over the gateway's own HTTP port with a signing secret), the
// bot token, the Web API base, bot-message handling, how replies thread and how thread sessions
// start. Spread into the Slack channel shape only, so the same names stay marked for channels that
// ignore them.
import { Type } from "typebox";
import { SecretRefSchema } from "./common.js";

const secret = (description: string) =>
  Type.Optional(Type.Union([Type.String(), SecretRefSchema], { description }));

/** Slack account keys Pincer acts on. */
export const slackProps = {
  thread: Type.Optional(
    Type.Object(
      {
        historyScope: Type.Optional(
          Type.Union([Type.Literal("thread"), Type.Literal("channel")], {
            description:
              "Whose unmentioned messages a thread reply sees as context: thread (default: its thread's) or channel (its channel's). Each thread keeps its own session either way.",
          }),
        ),
        inheritParent: Type.Optional(
          Type.Boolean({
            description:
              "A new thread session starts as a copy of its channel's session (default false).",
          }),
        ),
        initialHistoryLimit: Type.Optional(
          Type.Integer({
            minimum: 0,
            description:
              "Earlier thread messages (conversations.replies) a new thread session is given as context (default 20; 0: none).",
          }),
        ),
      },
      { additionalProperties: true, description: "Thread sessions (Slack)." },
    ),
  ),
  mode: Type.Optional(
    Type.Union([Type.Literal("socket"), Type.Literal("http")], {
      description:
        "Slack connection: socket (Socket Mode, needs appToken; the default) or http (Events API on the gateway's HTTP port, needs signingSecret).",
    }),
  ),
  botToken: secret("Bot token (Telegram; Slack: the xoxb- Bot User OAuth Token)."),
  appToken: secret("Slack: the app-level xapp- token (connections:write) Socket Mode opens with."),
  signingSecret: secret("Slack HTTP mode: the signing secret every request is checked with."),
  webhookPath: Type.Optional(
    Type.String({
      description:
        "Slack HTTP mode: the gateway HTTP path Slack posts events to (default /slack/events).",
    }),
  ),
  apiUrl: Type.Optional(
    Type.String({
      description: "Slack Web API base (default https://slack.com/api/): a proxy or a test server.",
    }),
  ),
  allowBots: Type.Optional(
    Type.Boolean({
      description: "Handle messages other bots post (default false; this bot's own: never).",
    }),
  ),
};
