// The options every gateway client command shares (`--url --token --password --json --timeout`),
// declared once; commands spread them after their own options.
import { flag, value } from "./command.js";

/** `--url --token --password --json` (for commands without a timeout of their own). */
export const gatewayConnectOptions = {
  url: value("<url>", "gateway URL (default ws://127.0.0.1:<gateway.port or 18789>)"),
  token: value(
    "<token>",
    "gateway token (default OPENCLAW_GATEWAY_TOKEN, gateway.auth.token, or the state dir's gateway.token)",
  ),
  password: value("<password>", "gateway password"),
  json: flag("print JSON"),
};

/** The connect options plus `--timeout <ms>`. */
export const gatewayClientOptions = {
  ...gatewayConnectOptions,
  timeout: value("<ms>", "connect and request timeout in ms (default 10000)"),
};
