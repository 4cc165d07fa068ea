// The `pincer node` family: `node run` connects this machine to a gateway as a headless node host.
// Declarations only; `run` loads on first call.
import { defineCommand, lazyRun, value } from "../command.js";

/** `pincer node`. */
export const nodeGroup = {
  path: ["node"],
  description: "run this machine as a node host of a gateway (the execution plane)",
} as const;

/** Options of `pincer node run`. */
export const nodeRunOptions = {
  url: value(
    "<url>",
    "gateway URL, ws://host:port or wss://… (default ws://127.0.0.1:<gateway.port>)",
  ),
  token: value("<token>", "gateway token (default OPENCLAW_GATEWAY_TOKEN or the config's)"),
  password: value("<password>", "gateway password"),
  displayName: value(
    "<name>",
    "the node's name in node.list and approvals (default: the host name)",
  ),
  roots: value("<dir,…>", "directories file.read / file.write may touch (none: no file commands)"),
  allow: value(
    "<exe,…>",
    "executables system.run may start: bare names on PATH, real paths, or * for any (none: no system.run)",
  ),
  timeout: value("<ms>", "connect and request timeout in ms (default 10000)"),
};

/** Every `pincer node` command. */
export const nodeCommands = [
  defineCommand({
    path: ["node", "run"],
    description:
      "connect as a node host (role node, its own device identity); paired and approved like any device; reconnects until stopped",
    options: nodeRunOptions,
    run: lazyRun(() => import("./run.js")),
  }),
];
