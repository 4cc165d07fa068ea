// `pincer dashboard`: the URL of the configured gateway with a token link, a probe of a real gateway
// (running / refused), no token ever printed for auth none or password, and no browser off a desktop.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callCommand, createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import {
  closedPort,
  createGatewaySandbox,
  type GatewaySandbox,
  TEST_TOKEN,
} from "../../../test/helpers/gateway-sandbox.js";
import { dashboardWith, probeGatewayHttp, run } from "./dashboard.js";

type DashboardOptions = Parameters<typeof dashboardWith>[1];

let sandbox: GatewaySandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Runs the command with the real probe and a recording browser opener. */
function dashboard(env: Record<string, string>, opts: DashboardOptions = {}) {
  const opened: string[] = [];
  const result = callCommand(
    (ctx) =>
      dashboardWith(ctx, opts, {
        probe: probeGatewayHttp,
        openUrl: async (url) => {
          opened.push(url);
          return undefined;
        },
      }),
    env,
  );
  return { result, opened };
}

describe("pincer dashboard", () => {
  it("puts gateway.controlUi.basePath in the URL and still probes the root /health", async () => {
    sandbox = await createGatewaySandbox();
    const port = Number(new URL(sandbox.gw.url).port);
    const config = JSON.parse(readFileSync(sandbox.configPath, "utf8"));
    writeFileSync(
      sandbox.configPath,
      JSON.stringify({
        ...config,
        gateway: { ...config.gateway, port, controlUi: { basePath: "/ui/" } },
      }),
    );
    const out = await dashboard(sandbox.env).result;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      `Dashboard URL: http://127.0.0.1:${port}/ui/#token=${TEST_TOKEN}\n`,
    );
    expect(out.stdout).toContain("Gateway: running");
  });

  it("prints the running gateway's URL with its token link", async () => {
    sandbox = await createGatewaySandbox();
    const port = Number(new URL(sandbox.gw.url).port);
    const config = JSON.parse(readFileSync(sandbox.configPath, "utf8"));
    writeFileSync(
      sandbox.configPath,
      JSON.stringify({ ...config, gateway: { ...config.gateway, port } }),
    );
    const { result, opened } = dashboard(sandbox.env);
    const out = await result;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Dashboard URL: http://127.0.0.1:${port}/#token=${TEST_TOKEN}\n`);
    expect(out.stdout).toContain(`Gateway: running, answering at http://127.0.0.1:${port}`);
    // Not a terminal: nothing is opened unless asked.
    expect(opened).toEqual([]);
    const json = await callCommand(run, sandbox.env, { opts: { json: true, open: false } });
    expect(JSON.parse(json.stdout)).toMatchObject({
      url: `http://127.0.0.1:${port}/#token=${TEST_TOKEN}`,
      authMode: "token",
      tokenIncluded: true,
      gateway: { running: true },
      opened: false,
    });
  });

  it("says the gateway is not running (refused) but still prints the URL; --open opens it", async () => {
    const cli = createCliSandbox();
    const port = await closedPort();
    cli.writeConfig(
      JSON.stringify({ gateway: { port, auth: { mode: "token", token: "t0k/en+1" } } }),
    );
    const { result, opened } = dashboard(cli.env, { open: true });
    const out = await result;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Dashboard URL: http://127.0.0.1:${port}/#token=t0k%2Fen%2B1\n`);
    expect(out.stdout).toContain(
      `not running (connection to 127.0.0.1:${port} refused (ECONNREFUSED))`,
    );
    expect(opened).toEqual([`http://127.0.0.1:${port}/#token=t0k%2Fen%2B1`]);
  });

  it("never prints a token when auth is none or password", async () => {
    const cli = createCliSandbox();
    const port = await closedPort();
    // A generated token file exists, but the config says auth none: it must not leak into the link.
    cli.writeConfig(JSON.stringify({ gateway: { port, auth: { mode: "none" } } }));
    writeFileSync(join(cli.stateDir, "gateway.token"), "file-token-secret\n");
    const none = await cli.run(["dashboard", "--no-open"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(`Dashboard URL: http://127.0.0.1:${port}/\n`);
    expect(none.stdout).not.toContain("#token");
    expect(none.stdout).not.toContain("file-token-secret");

    cli.writeConfig(
      JSON.stringify({ gateway: { port, auth: { mode: "password", password: "pw-secret" } } }),
    );
    const password = await cli.run(["dashboard", "--json"]);
    const body = JSON.parse(password.stdout);
    expect(body).toMatchObject({ authMode: "password", tokenIncluded: false });
    expect(password.stdout).not.toContain("pw-secret");
    expect(password.stdout).not.toContain("file-token-secret");
  });

  it("uses the state dir's generated token when nothing configures auth, and says when there is none", async () => {
    const cli = createCliSandbox();
    const port = await closedPort();
    cli.writeConfig(JSON.stringify({ gateway: { port, bind: "lan" } }));
    const before = await cli.run(["dashboard"]);
    expect(before.stdout).toContain(`Dashboard URL: http://127.0.0.1:${port}/\n`);
    expect(before.stdout).toContain(`the gateway creates ${join(cli.stateDir, "gateway.token")}`);
    writeFileSync(join(cli.stateDir, "gateway.token"), "generated-token\n");
    const after = await cli.run(["dashboard"]);
    expect(after.stdout).toContain(`/#token=generated-token\n`);
  });

  it("refuses when the Control UI is turned off", async () => {
    const cli = createCliSandbox();
    cli.writeConfig(JSON.stringify({ gateway: { controlUi: { enabled: false } } }));
    const off = await cli.run(["dashboard"]);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain("gateway.controlUi.enabled: false");
    expect(off.stdout).toBe("");
  });
});
