// The `pincer gateway` family: run (the default, in the foreground), call (one RPC), and the systemd
// user service: install, uninstall, stop, restart, status. Declarations only; each `run` loads on
// first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";
import { gatewayClientOptions } from "../gateway-client-flags.js";
import { asksForJson, jsonUsageOutput } from "./run-usage.js";

/** `pincer gateway`. */
export const gatewayGroup = {
  path: ["gateway"],
  description: "run the gateway daemon (WebSocket + HTTP on one port)",
} as const;

/** Options of `pincer gateway run`. */
export const runOptions = {
  port: value("<port>", "port (default gateway.port or 18789; 0 picks a free one)"),
  bind: value(
    "<mode>",
    "loopback (default), lan, tailnet (this host's Tailscale address) or custom",
  ),
  host: value("<host>", "address for --bind custom"),
  auth: value("<mode>", "none, token or password"),
  token: value("<token>", "shared token (env OPENCLAW_GATEWAY_TOKEN)"),
  password: value("<password>", "shared password"),
  json: flag("print JSON lines only, on stdout and stderr (logs, the ready record, errors)"),
};
/** Options of `pincer gateway call`. */
export const callOptions = {
  params: value("<json>", "params as a JSON object"),
  expectFinal: flag("wait past the accepted ack for the final response (agent)"),
  ...gatewayClientOptions,
};
/** Options of `pincer gateway install`. */
export const installOptions = {
  port: value("<port>", "port the service listens on (default gateway.port or 18789)"),
  force: flag("overwrite an existing unit file"),
};
/** Options of `pincer gateway stop`. */
export const stopOptions = {
  timeout: value("<ms>", "how long to wait for an unsupervised gateway to exit (default 30000)"),
};
/** Options of `pincer gateway status`. */
export const statusOptions = { json: flag("print JSON") };

/** Every `pincer gateway` command. */
export const gatewayCommands = [
  defineCommand({
    path: ["gateway", "run"],
    isDefault: true,
    description: "run the gateway in the foreground until SIGTERM/SIGINT",
    options: runOptions,
    // Under --json even commander's own usage errors are JSON records.
    configure: (cmd, { argv, io }) => {
      if (!asksForJson(argv)) return;
      cmd.configureOutput(
        jsonUsageOutput({ writeOut: io.stdout, writeErr: io.stderr, pid: io.pid, now: Date.now }),
      );
    },
    run: lazyRun(() => import("./run.js")),
  }),
  defineCommand({
    path: ["gateway", "call"],
    description: "call one gateway method and print the response payload as JSON",
    arguments: [
      { name: "method", description: "method, e.g. health, status, sessions.list", required: true },
    ],
    options: callOptions,
    run: lazyRun(() => import("./call.js")),
  }),
  defineCommand({
    path: ["gateway", "install"],
    description:
      "install a systemd user unit that runs the gateway and restarts it (enable --now); needs a user bus",
    options: installOptions,
    run: lazyRun(() => import("./install.js")),
  }),
  defineCommand({
    path: ["gateway", "uninstall"],
    description: "stop and disable the systemd user unit and remove its file (idempotent)",
    options: {},
    run: lazyRun(() => import("./uninstall.js")),
  }),
  defineCommand({
    path: ["gateway", "stop"],
    description:
      "stop the gateway: systemctl --user stop, else SIGTERM to the state-dir lock's pid (idempotent)",
    options: stopOptions,
    run: lazyRun(() => import("./stop.js")),
  }),
  defineCommand({
    path: ["gateway", "restart"],
    description: "restart the gateway service (systemd); explains what to do when unsupervised",
    options: {},
    run: lazyRun(() => import("./restart.js")),
  }),
  defineCommand({
    path: ["gateway", "status"],
    description: "is the service installed, and is a gateway running for this state dir",
    options: statusOptions,
    run: lazyRun(() => import("./status.js")),
  }),
];
