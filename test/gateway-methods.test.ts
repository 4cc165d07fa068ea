// Every read/write method answers: health, status, presence, agents, models, channels, logs,
// identity, sessions.*, scopes (unknown methods are admin-only) and the HTTP routes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
let client: TestClient;
const p = payloadOf;

beforeAll(async () => {
  box = await createGatewaySandbox({
    config: () => ({
      agents: { list: [{ id: "main", identity: { name: "Pinchy", emoji: "🦀" } }, { id: "work" }] },
    }),
  });
  client = await box.connect();
  box.fake.text("one", { chunks: 1 });
  const ack = await client.request("agent", { message: "seed", idempotencyKey: "seed-1" });
  await client.waitFor((f) => f.type === "res" && f.id === ack.id && p(f).status === "ok");
});
afterAll(async () => box?.close());

describe("gateway methods", () => {
  it("health and status", async () => {
    const health = p(await client.request("health"));
    expect(health).toMatchObject({ ok: true, defaultAgentId: "main" });
    expect(health.agents.map((a: { agentId: string }) => a.agentId)).toEqual(["main", "work"]);
    const status = p(await client.request("status"));
    expect(status.gateway).toMatchObject({ pid: process.pid, authMode: "token", connections: 1 });
    expect(status.channels).toEqual([]);
  });

  it("system-presence, system-event", async () => {
    const before = p(await client.request("system-presence")) as unknown as Array<{
      reason: string;
    }>;
    expect(before.some((row) => row.reason === "self")).toBe(true);
    const ok = await client.request("system-event", {
      text: "Node: mac (10.0.0.5) · mode ui",
      instanceId: "i-1",
      host: "mac",
    });
    expect(p(ok)).toEqual({ ok: true });
    const after = p(await client.request("system-presence")) as unknown as Array<{
      instanceId?: string;
    }>;
    expect(after.some((row) => row.instanceId === "i-1")).toBe(true);
    // Presence events are coalesced (50 ms): wait for the one this beacon triggers.
    await client.waitFor((frame) => frame.type === "event" && frame.event === "presence");
  });

  it("agents.list, agent.identity.get, models.list, channels.status, logs.tail", async () => {
    expect(p(await client.request("agents.list"))).toMatchObject({
      defaultId: "main",
      mainKey: "main",
    });
    expect(p(await client.request("agent.identity.get", { agentId: "main" }))).toMatchObject({
      agentId: "main",
      name: "Pinchy",
      emoji: "🦀",
    });
    expect(p(await client.request("agent.identity.get", { agentId: "work" }))).toMatchObject({
      name: "Assistant",
      avatar: "A",
      nameSource: "default",
    });
    const models = p(await client.request("models.list")).models as Array<{
      provider: string;
      id: string;
    }>;
    expect(models.some((m) => m.provider === "fake" && m.id === "m1")).toBe(true);
    expect(p(await client.request("channels.status"))).toMatchObject({
      channelOrder: [],
      channels: {},
    });
    const logs = p(await client.request("logs.tail", { limit: 50 }));
    expect(logs.lines.some((line: string) => line.includes("gateway ready"))).toBe(true);
    const next = p(await client.request("logs.tail", { cursor: logs.cursor }));
    expect(next.cursor).toBeGreaterThanOrEqual(logs.cursor);
  });

  it("sessions.list / preview / patch / reset / compact / delete", async () => {
    // sessions.changed goes only to subscribers (as OpenClaw).
    expect(p(await client.request("sessions.subscribe", {}))).toEqual({ subscribed: true });
    const list = p(await client.request("sessions.list", {}));
    expect(list.sessions.map((s: { key: string }) => s.key)).toContain("agent:main:main");
    const preview = p(
      await client.request("sessions.preview", { keys: ["agent:main:main", "agent:main:nope"] }),
    );
    expect(preview.previews[0]).toMatchObject({
      status: "ok",
      items: [
        { role: "user", text: "seed" },
        { role: "assistant", text: "one" },
      ],
    });
    expect(preview.previews[1].status).toBe("missing");
    const patched = p(
      await client.request("sessions.patch", {
        key: "agent:main:main",
        label: "pinned",
        thinkingLevel: "low",
      }),
    );
    expect(patched.entry).toMatchObject({ label: "pinned", thinkingLevel: "low" });
    const cleared = p(
      await client.request("sessions.patch", { key: "agent:main:main", label: null }),
    );
    expect(cleared.entry.label).toBeUndefined();
    const bad = await client.request("sessions.patch", {
      key: "agent:main:main",
      modelProvider: "x",
    });
    expect((bad.error as { message: string }).message).toBe(
      "invalid sessions.patch params: at root: unexpected property 'modelProvider'",
    );
    // A level or mode no run would honour is refused, naming the field; nothing is stored.
    for (const [field, value] of [
      ["thinkingLevel", "adaptive"],
      ["verboseLevel", "loud"],
      ["reasoningLevel", "always"],
      ["queueMode", "later"],
    ] as const) {
      const refused = await client.request("sessions.patch", {
        key: "agent:main:main",
        [field]: value,
      });
      expect(refused.error, `${field}: ${value}`).toMatchObject({ code: "INVALID_REQUEST" });
      expect((refused.error as { message: string }).message).toContain(field);
    }
    const kept = p(await client.request("sessions.patch", { key: "agent:main:main" }));
    expect(kept.entry.thinkingLevel).toBe("low");
    expect(kept.entry.queueMode).toBeUndefined();
    box.fake.text("summary of the chat", { chunks: 1 });
    const compact = p(await client.request("sessions.compact", { key: "agent:main:main" }, 8000));
    expect(compact).toMatchObject({ ok: true, key: "agent:main:main" });
    const oldId = list.sessions.find((s: { key: string }) => s.key === "agent:main:main").sessionId;
    const reset = p(await client.request("sessions.reset", { key: "agent:main:main" }));
    expect(reset.entry.sessionId).not.toBe(oldId);
    const deleted = p(await client.request("sessions.delete", { key: "agent:main:main" }));
    expect(deleted).toMatchObject({ ok: true, deleted: true });
    const missing = await client.request("sessions.reset", { key: "agent:main:main" });
    expect(missing.error).toMatchObject({ details: { code: "SESSION_NOT_FOUND" } });
    expect(client.events("sessions.changed").length).toBeGreaterThan(0);
  });

  it("scopes: read-only clients cannot write; unknown methods are admin-only", async () => {
    const reader = await box.connect({ scopes: ["operator.read"] });
    expect((await reader.request("health")).ok).toBe(true);
    const write = await reader.request("sessions.reset", { key: "main" });
    expect(write.error).toMatchObject({
      code: "FORBIDDEN",
      details: { code: "MISSING_SCOPE", missingScope: "operator.write" },
    });
    const unknown = await reader.request("node.pair.list");
    expect(unknown.error).toEqual({
      code: "FORBIDDEN",
      message: "missing scope: operator.admin",
      details: {
        code: "MISSING_SCOPE",
        missingScope: "operator.admin",
        requiredScopes: ["operator.admin"],
      },
    });
    expect((await reader.request("config.get")).error).toMatchObject({ code: "FORBIDDEN" });
    const admin = await client.request("node.pair.list");
    expect(admin.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: "unknown method: node.pair.list",
    });
    reader.close();
  });

  it("serves GET /health over HTTP (the WebChat files: test/webchat-http.test.ts)", async () => {
    const base = box.gw.url.replace("ws://", "http://");
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ ok: true });
    // Unauthenticated HTTP reveals nothing about agents, sessions or paths.
    expect(Object.keys(body).sort()).toEqual(["ok", "ts", "uptimeMs"]);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
