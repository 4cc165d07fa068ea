// Discord's own account keys (OpenClaw's names): the bot token and where it comes from, the REST
// base for a proxy or a test server, and whether other bots' messages are handled. Spread into the
// Discord channel shape only, so the shared names stay compat-marked for channels that ignore them.
import { Type } from "typebox";
import { SecretRefSchema } from "./common.js";

/** Discord account keys Pincer acts on. */
export const discordProps = {
  token: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], {
      description:
        "Discord bot token (inline, with env references, or an env SecretRef; DISCORD_BOT_TOKEN for the default account).",
    }),
  ),
  tokenFile: Type.Optional(Type.String({ description: "File holding the Discord bot token." })),
  apiRoot: Type.Optional(
    Type.String({
      description:
        "Discord REST base (https://discord.com/api); the Gateway URL comes from its GET /gateway/bot.",
    }),
  ),
  timeoutSeconds: Type.Optional(
    Type.Number({ minimum: 0, description: "Timeout of one Discord REST request (s; 15)." }),
  ),
  allowBots: Type.Optional(
    Type.Boolean({
      description: "Handle messages other bots write (default false; the bot's own: never).",
    }),
  ),
};
