// The keys of a WhatsApp account on the Business Cloud API (`transport: "cloud"`): the phone number
// it sends from, the Graph API token, the app secret webhook signatures are checked with, the token
// of the webhook subscription handshake, and where the Graph API and the webhook live. Spread into
// the WhatsApp channel shape only, so the same names stay marked for channels that ignore them.
import { Type } from "typebox";
import { SecretRefSchema } from "./common.js";

const secret = (description: string) =>
  Type.Optional(Type.Union([Type.String(), SecretRefSchema], { description }));

/** WhatsApp account keys of both transports and of the Cloud API. */
export const whatsAppCloudProps = {
  transport: Type.Optional(
    Type.Union([Type.Literal("web"), Type.Literal("cloud")], {
      description:
        "WhatsApp transport: web (WhatsApp Web through Baileys, the default) or cloud (the Business Cloud API).",
    }),
  ),
  phoneNumberId: Type.Optional(
    Type.String({ description: "Cloud API: the business phone number id messages are sent from." }),
  ),
  accessToken: secret("Access token (Matrix; WhatsApp Cloud API: the Graph API bearer token)."),
  appSecret: secret("Cloud API: the Meta app secret webhook signatures are checked with."),
  verifyToken: secret("Cloud API: the token Meta's webhook subscription handshake must present."),
  apiRoot: Type.Optional(
    Type.String({
      description:
        "API root: Telegram's Bot API server, or the WhatsApp Cloud API's Graph root (https://graph.facebook.com).",
    }),
  ),
  apiVersion: Type.Optional(
    Type.String({
      pattern: "^v\\d+\\.\\d+$",
      description: "Cloud API: Graph API version (v21.0).",
    }),
  ),
  webhookPath: Type.Optional(
    Type.String({
      description:
        "Cloud API: the gateway HTTP path Meta posts webhooks to (default /webhooks/whatsapp/<accountId>).",
    }),
  ),
};
