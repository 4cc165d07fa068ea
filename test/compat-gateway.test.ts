// Nothing accepted is silently ignored, on a real gateway: start logs one line per compat key (and a
// reload only the new ones), channels.status lists an adapter-less channel as such with each configured
// account, and `gateway.controlUi.enabled: false` turns the UI's HTTP routes off (404, live on reload)
// while the WebSocket and /health keep working.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run as channelsStatus } from "../src/cli/channels/status.js";
import { run as status } from "../src/cli/status/status.js";
import { callCommand } from "./helpers/cli-sandbox.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  TEST_TOKEN,
  type TestClient,
} from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

let box: GatewaySandbox | undefined;
let uiRoot: string | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
  if (uiRoot) rmSync(uiRoot, { recursive: true, force: true });
  uiRoot = undefined;
});

async function logTail(client: TestClient): Promise<string[]> {
  return ((await client.request("logs.tail", { limit: 500 })).payload as Loose).lines;
}

async function patchConfig(client: TestClient, raw: string): Promise<void> {
  const { hash } = (await client.request("config.get")).payload as Loose;
  const res = await client.request("config.patch", { baseHash: hash, raw });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
}

const COMPAT_PATHS = [
  "channels.matrix",
  "channels.mattermost",
  "cron.sessionRetention",
  "mcp",
  "browser",
  "session.sendPolicy",
];

describe("gateway start", () => {
  it("logs one line per compat key, naming the path; a reload logs only newly used keys", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          matrix: { accounts: { personal: {}, work: {} } },
          mattermost: { botToken: "m" },
        },
        cron: { enabled: true, sessionRetention: "24h" },
        mcp: { servers: {} },
        browser: { enabled: true },
        session: { sendPolicy: { default: "allow" } },
      }),
    });
    const client = await box.connect();
    const first = (await logTail(client)).filter((line) => line.includes("OpenClaw compatibility"));
    for (const path of COMPAT_PATHS)
      expect(
        first.filter((line) => line.includes(`config: ${path}: `)),
        path,
      ).toHaveLength(1);
    expect(first).toHaveLength(COMPAT_PATHS.length);
    await patchConfig(client, '{ hooks: { gmail: { account: "me@example.com" } } }');
    const second = (await logTail(client)).filter((line) =>
      line.includes("OpenClaw compatibility"),
    );
    expect(second.filter((line) => line.includes("config: hooks.gmail: "))).toHaveLength(1);
    expect(second).toHaveLength(COMPAT_PATHS.length + 1);
  });
});

describe("channels without an adapter", () => {
  it("channels.status and the CLI show them as no adapter with every configured account", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        channels: { matrix: { accounts: { personal: {}, work: { enabled: false } } } },
      }),
    });
    const client = await box.connect();
    const res = await client.request("channels.status", {});
    const payload = res.payload as Loose;
    expect(payload.channels.matrix).toMatchObject({ adapter: false, accounts: 2 });
    expect(payload.channelAccounts.matrix).toEqual([
      expect.objectContaining({ accountId: "personal", adapter: false, enabled: true }),
      expect.objectContaining({ accountId: "work", adapter: false, enabled: false }),
    ]);
    const opts = { url: box.gw.url, token: TEST_TOKEN };
    const cli = await callCommand(channelsStatus as never, box.env, { opts });
    expect(cli.stdout).toMatch(/^matrix\/personal {2}no adapter \(not supported by Pincer yet\)$/m);
    expect(cli.stdout).toMatch(/^matrix\/work {2}no adapter .*, disabled$/m);
    const overview = await callCommand(status as never, box.env, { opts });
    expect(overview.stdout).toMatch(/^Channels {2}matrix \(no adapter: personal\)$/m);
  });
});

describe("gateway.controlUi.enabled", () => {
  async function uiGateway(enabled: boolean): Promise<GatewaySandbox> {
    uiRoot = makeTempDir("pincer-ui-");
    writeFileSync(join(uiRoot, "index.html"), "<!doctype html><title>webchat</title>");
    writeFileSync(join(uiRoot, "app.js"), "console.log('ui');");
    return createGatewaySandbox({
      config: () => ({
        gateway: { auth: { mode: "token", token: TEST_TOKEN }, controlUi: { enabled } },
      }),
      options: { uiDir: uiRoot },
    });
  }
  const get = async (gw: GatewaySandbox, path: string) => {
    const res = await fetch(`http://127.0.0.1:${gw.gw.port}${path}`);
    return { status: res.status, body: await res.text() };
  };

  it("false: the UI's routes answer 404 while the WebSocket and /health keep working", async () => {
    box = await uiGateway(false);
    for (const path of ["/", "/index.html", "/app.js"]) {
      const res = await get(box, path);
      expect(res.status, path).toBe(404);
      expect(res.body).toContain("gateway.controlUi.enabled is false");
    }
    expect((await get(box, "/health")).status).toBe(200);
    const client = await box.connect();
    expect((await client.request("status", {})).ok).toBe(true);
  });

  it("a reload turns the UI on and off again without a restart", async () => {
    box = await uiGateway(true);
    expect(await get(box, "/")).toMatchObject({ status: 200 });
    const client = await box.connect();
    await patchConfig(client, "{ gateway: { controlUi: { enabled: false } } }");
    expect((await get(box, "/")).status).toBe(404);
    expect((await client.request("status", {})).ok).toBe(true);
    await patchConfig(client, "{ gateway: { controlUi: { enabled: true } } }");
    expect(await get(box, "/app.js")).toMatchObject({ status: 200, body: "console.log('ui');" });
  });
});
