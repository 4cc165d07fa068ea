// Config over the gateway: config.get redacts secrets, config.set/apply/patch validate first, keep a
// backup and apply live; file edits are picked up by the watcher; invalid files are ignored.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});
const p = payloadOf;

async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("gateway config methods and live reload", () => {
  it("config.get redacts secrets; config.schema returns the schema", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const got = p(await client.request("config.get"));
    expect(got.config.gateway.auth.token).toBe("__REDACTED__");
    expect(got.config.models.providers.fake.apiKey).toBe("__REDACTED__");
    expect(got.config.models.providers.fake.models[0].maxTokens).toBe(1024);
    expect(got.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(p(await client.request("config.schema")).schema.type).toBe("object");
  });

  it("config.apply validates, keeps a backup and applies live", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const { hash } = p(await client.request("config.get"));
    const current = JSON.parse(readFileSync(box.configPath, "utf8"));
    const bad = { ...current, agents: { ...current.agents, list: [{ id: 42 }] } };
    const refused = await client.request("config.apply", {
      raw: JSON.stringify(bad),
      baseHash: hash,
    });
    expect(refused.error).toMatchObject({
      code: "INVALID_REQUEST",
      details: { code: "CONFIG_INVALID" },
    });
    const next = {
      ...current,
      agents: { ...current.agents, list: [{ id: "main" }, { id: "ops" }] },
    };
    const stale = await client.request("config.apply", {
      raw: JSON.stringify(next),
      baseHash: "0".repeat(64),
    });
    expect(stale.error).toMatchObject({ details: { code: "CONFIG_BASE_HASH_MISMATCH" } });
    const applied = await client.request("config.apply", {
      raw: JSON.stringify(next),
      baseHash: hash,
    });
    expect(p(applied)).toMatchObject({
      ok: true,
      backupPath: `${box.configPath}.bak`,
      restart: { needed: false },
    });
    expect(existsSync(`${box.configPath}.bak`)).toBe(true);
    const agents = p(await client.request("agents.list")).agents.map((a: { id: string }) => a.id);
    expect(agents).toEqual(["main", "ops"]);
  });

  it("config.patch merges, keeps untouched keys, and reports port changes as needing a restart", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const raw = "{ gateway: { port: 19999 }, agents: { defaults: { maxConcurrent: 2 } } }";
    // As in OpenClaw, a write to an existing file must name the version it was based on.
    const unbased = await client.request("config.patch", { raw });
    expect(unbased.error).toMatchObject({
      code: "INVALID_REQUEST",
      details: { code: "CONFIG_BASE_HASH_REQUIRED" },
    });
    const { hash } = p(await client.request("config.get"));
    const res = await client.request("config.patch", { raw, baseHash: hash });
    expect(p(res)).toMatchObject({ ok: true, restart: { needed: true, keys: ["gateway.port"] } });
    expect(box.gw.core.runtime.lanes.maxConcurrent).toBe(2);
    const file = JSON.parse(readFileSync(box.configPath, "utf8"));
    expect(file.gateway.auth.token).toBe("test-token-123");
    const logs = p(await client.request("logs.tail", {})).lines.join("\n");
    expect(logs).toContain("gateway.port changed; needs restart");
  });

  it("config.patch of cluster.store reports a restart and keeps the sessions where they are", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const raw = '{ cluster: { store: { kind: "postgres", url: "postgres://db.invalid/pincer" } } }';
    const { hash } = p(await client.request("config.get"));
    const res = await client.request("config.patch", { raw, baseHash: hash });
    expect(p(res)).toMatchObject({ ok: true, restart: { needed: true, keys: ["cluster.store"] } });
    expect(box.gw.core.runtime.stores.backendKind).toBe("files");
    const turn = { sessionKey: "after-patch", message: "still on files", idempotencyKey: "ap-1" };
    expect((await client.request("chat.send", turn)).ok).toBe(true);
    const logs = p(await client.request("logs.tail", {})).lines.join("\n");
    expect(logs).toContain("cluster.store changed; needs restart");
  });

  it("reloads when the file changes on disk and ignores an invalid file", async () => {
    box = await createGatewaySandbox({ options: { watchConfig: true } });
    const { gw, configPath } = box;
    const current = JSON.parse(readFileSync(configPath, "utf8"));
    current.agents.list = [{ id: "main" }, { id: "watched" }];
    writeFileSync(configPath, JSON.stringify(current));
    await eventually(() =>
      (gw.core.live.config.agents?.list ?? []).some((a) => a?.id === "watched"),
    );
    writeFileSync(configPath, "{ agents: { list: [ { id: 42 } ] } }");
    await eventually(() =>
      gw.core.logs
        .tail({ limit: 100, maxBytes: 100_000 })
        .lines.some((l) => l.includes("config reload rejected")),
    );
    expect((gw.core.live.config.agents?.list ?? []).some((a) => a?.id === "watched")).toBe(true);
  });
});
