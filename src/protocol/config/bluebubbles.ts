// The keys a BlueBubbles account runs with (OpenClaw's names): the BlueBubbles server's URL and
// API password, and the gateway path its webhook posts to. Spread into the BlueBubbles channel
// shape only, so the same names stay marked for channels that ignore them.
import { Type } from "typebox";
import { SecretRefSchema } from "./common.js";

/** BlueBubbles account keys Pincer acts on. */
export const blueBubblesProps = {
  serverUrl: Type.Optional(
    Type.String({ description: "BlueBubbles: the server's URL (http://192.168.1.100:1234)." }),
  ),
  password: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], {
      description:
        "BlueBubbles: the server's API password; every webhook must carry it too (?password=).",
    }),
  ),
  webhookPath: Type.Optional(
    Type.String({
      description:
        "BlueBubbles: the gateway HTTP path its webhook posts to (default /bluebubbles-webhook; /bluebubbles-webhook/<account> for a named account).",
    }),
  ),
};
