// Live reload and auth: the running gateway resolves auth exactly as a fresh start would (token file
// fallback included); a reload that would weaken auth is refused, reported in health/status/config.get
// and the logs, and applies on restart; a file the gateway rejected (syntax or schema) is visible with
// its located issues and the running config's hash.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  openClient,
  payloadOf as p,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
let restarted: GatewayHandle | undefined;
afterEach(async () => {
  await restarted?.close("test done");
  restarted = undefined;
  await box?.close();
  box = undefined;
});

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a fresh connection with these auth params is accepted. */
async function accepted(url: string, auth: Record<string, unknown> | undefined): Promise<boolean> {
  const client = await openClient(url);
  const res = await client.request("connect", {
    ...connectParams(),
    ...(auth ? { auth } : { auth: undefined }),
  });
  client.close();
  return res.ok === true;
}

function editFile(path: string, change: (cfg: Loose) => void): void {
  const cfg = JSON.parse(readFileSync(path, "utf8"));
  change(cfg);
  writeFileSync(path, JSON.stringify(cfg, null, 2));
}

describe("auth on a live reload", () => {
  it("removing gateway.auth from the file falls back to the token file, as a fresh start does", async () => {
    box = await createGatewaySandbox({ options: { watchConfig: true } });
    const { gw, configPath, stateDir } = box;
    editFile(configPath, (cfg) => {
      delete cfg.gateway.auth;
    });
    const tokenPath = join(stateDir, "gateway.token");
    await eventually(() => {
      try {
        return readFileSync(tokenPath, "utf8").trim() !== "";
      } catch {
        return false;
      }
    }, "the generated token file");
    const fileToken = readFileSync(tokenPath, "utf8").trim();
    await eventually(async () => !(await accepted(gw.url, { token: TEST_TOKEN })), "old token off");
    expect(await accepted(gw.url, undefined)).toBe(false);
    expect(await accepted(gw.url, { token: fileToken })).toBe(true);
    expect(gw.core.authMode).toBe("token");
  });

  it("refuses a reload that turns auth off, reports it, and applies it only on restart", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const { hash } = p(await client.request("config.get"));
    const res = await client.request("config.patch", {
      raw: '{ gateway: { auth: { mode: "none", token: null } }, agents: { defaults: { maxConcurrent: 3 } } }',
      baseHash: hash,
    });
    expect(p(res)).toMatchObject({
      ok: true,
      applied: false,
      restart: { needed: true, keys: ["gateway.auth"] },
    });
    expect(p(res).warnings[0]).toMatch(/token -> none.*applies only when the gateway restarts/);
    // The running gateway keeps token auth and the running config.
    expect(await accepted(box.gw.url, undefined)).toBe(false);
    expect(await accepted(box.gw.url, { token: TEST_TOKEN })).toBe(true);
    expect(box.gw.core.runtime.lanes.maxConcurrent).not.toBe(3);
    const health = p(await client.request("health"));
    expect(health.config).toMatchObject({
      inSync: false,
      file: { valid: true },
      rejected: { reason: "auth-weakened" },
    });
    expect(health.config.running.hash).not.toBe(health.config.file.hash);
    expect(health.warnings[0]).toMatch(/config reload rejected/);
    const status = p(await client.request("status"));
    expect(status.config.rejected).toMatchObject({ reason: "auth-weakened" });
    expect(status.gateway.authMode).toBe("token");
    const logs = p(await client.request("logs.tail", {})).lines.join("\n");
    expect(logs).toMatch(/config reload rejected.*token -> none/);
    client.close();

    // A restart applies it (loopback, mode none): exactly what a fresh start resolves.
    await box.gw.close("restart");
    restarted = await startGateway({ env: box.env, port: 0, watchConfig: false });
    expect(restarted.core.authMode).toBe("none");
    expect(await accepted(restarted.url, undefined)).toBe(true);
  });

  it("applies a token change live: the new token works, the old one no longer does", async () => {
    box = await createGatewaySandbox({ options: { watchConfig: true } });
    editFile(box.configPath, (cfg) => {
      cfg.gateway.auth.token = "rotated-token-456";
    });
    await eventually(
      async () => await accepted(box!.gw.url, { token: "rotated-token-456" }),
      "the new token",
    );
    expect(await accepted(box.gw.url, { token: TEST_TOKEN })).toBe(false);
  });

  it("closes connections made with the old token once a new one applies; config.patch still answers", async () => {
    box = await createGatewaySandbox();
    const bystander = await box.connect();
    const rotator = await box.connect();
    const { hash } = p(await rotator.request("config.get"));
    const patched = await rotator.request("config.patch", {
      baseHash: hash,
      raw: '{ gateway: { auth: { token: "rotated-token-789" } } }',
    });
    // The client that rotated the token gets its answer before its connection is closed.
    expect(patched.ok).toBe(true);
    expect(await rotator.closed).toMatchObject({ code: 1008, reason: /auth changed/ });
    expect(await bystander.closed).toMatchObject({ code: 1008, reason: /auth changed/ });
    expect(await accepted(box.gw.url, { token: "rotated-token-789" })).toBe(true);
  });

  it("refuses auth settings that cannot work and keeps the running auth", async () => {
    box = await createGatewaySandbox({ options: { watchConfig: true } });
    editFile(box.configPath, (cfg) => {
      cfg.gateway.auth = { mode: "password" };
    });
    await eventually(() => box!.gw.core.live.status().rejected !== undefined, "the rejection");
    expect(box.gw.core.live.status().rejected).toMatchObject({ reason: "auth-unusable" });
    expect(await accepted(box.gw.url, { token: TEST_TOKEN })).toBe(true);
  });
});

describe("a rejected reload is visible", () => {
  it("reports a syntax error with file:line:col in health, status and config.get", async () => {
    box = await createGatewaySandbox({ options: { watchConfig: true } });
    const client = await box.connect();
    const before = p(await client.request("config.get"));
    writeFileSync(box.configPath, '{\n  agents: {\n    list: [ { id: "main" } ],,\n  },\n}\n');
    await eventually(() => box!.gw.core.live.status().rejected !== undefined, "the rejection");
    const health = p(await client.request("health"));
    expect(health.config).toMatchObject({
      inSync: false,
      running: { hash: before.hash },
      file: { valid: false },
      rejected: { reason: "invalid" },
    });
    const [issue] = health.config.file.issues;
    expect(issue).toMatchObject({ severity: "error", file: box.configPath, line: 3 });
    expect(issue.message).toMatch(/invalid JSON5/);
    expect(issue.column).toBeGreaterThan(1);
    const got = p(await client.request("config.get"));
    expect(got).toMatchObject({ valid: false, inSync: false, running: { hash: before.hash } });
    expect(got.hash).not.toBe(before.hash);
    expect(got.issues[0]).toMatchObject({ line: 3, file: box.configPath });
    const status = p(await client.request("status"));
    expect(status.config).toMatchObject({
      file: { valid: false },
      rejected: { reason: "invalid" },
    });
    // The running config is untouched: agents still answer from it.
    expect(p(await client.request("agents.list")).agents.map((a: { id: string }) => a.id)).toEqual([
      "main",
    ]);
  });

  it("reports a schema error at its line, and clears once the file is fixed", async () => {
    box = await createGatewaySandbox({ options: { watchConfig: true } });
    const client = await box.connect();
    const good = readFileSync(box.configPath, "utf8");
    editFile(box.configPath, (cfg) => {
      cfg.gateway.port = "not-a-port";
    });
    await eventually(() => box!.gw.core.live.status().rejected !== undefined, "the rejection");
    const { config } = p(await client.request("health"));
    const issue = config.file.issues.find((i: { path: string }) => i.path === "gateway.port");
    expect(issue).toMatchObject({ severity: "error", file: box.configPath });
    const lines = readFileSync(box.configPath, "utf8").split("\n");
    expect(issue.line).toBe(lines.findIndex((line) => line.includes('"port"')) + 1);
    writeFileSync(box.configPath, good);
    await eventually(() => box!.gw.core.live.status().inSync, "the fixed file");
    const fixed = p(await client.request("health"));
    expect(fixed.config.rejected).toBeUndefined();
    expect(fixed.warnings).toEqual([]);
  });
});
