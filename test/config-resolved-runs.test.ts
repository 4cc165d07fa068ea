// What you configure is what runs, through the real gateway and a fake model server: the legacy
// top-level `agent.timeoutSeconds` applies, `timeoutSeconds: 0` means no timeout, a per-agent
// `timeoutSeconds` and `maxConcurrent` apply to that agent only, and status/health/agents.list show
// the same roster as the runs for an `agents.entries` config and a legacy `agent` config.
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/index.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from "./helpers/fake-openai.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";

let box: GatewaySandbox | undefined;
let ownFake: FakeOpenAI | undefined;
afterEach(async () => {
  await box?.close();
  await ownFake?.close();
  box = undefined;
  ownFake = undefined;
});

/** Sends one agent run and resolves with its final response payload. */
async function runOnce(
  client: TestClient,
  params: { message: string; sessionKey: string; agentId?: string },
  timeoutMs = 30_000,
) {
  const ack = await client.request("agent", { ...params, idempotencyKey: params.message });
  expect(ack.ok).toBe(true);
  const final = await client.waitFor(
    (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
    timeoutMs,
  );
  return payloadOf(final);
}

/** A reply slower than a 1 s timeout: three pieces 650 ms apart (1.3 s at least). */
const SLOW_REPLY = { chunks: 3, delayMs: 650 } as const;

describe("run timeouts from the resolved config", () => {
  it("the legacy top-level agent.timeoutSeconds times a slow run out", async () => {
    box = await createGatewaySandbox({ config: () => ({ agent: { timeoutSeconds: 1 } }) });
    box.fake.hang({ afterHeaders: true });
    const client = await box.connect();
    const final = await runOnce(client, { message: "legacy-1", sessionKey: "main" });
    expect(final.status).toBe("timeout");
    expect(JSON.stringify(final)).toContain("timed out after 1s");
  }, 40_000);

  it("timeoutSeconds: 0 means no timeout: a slow run finishes", async () => {
    box = await createGatewaySandbox({
      config: () => ({ agents: { defaults: { timeoutSeconds: 0 } } }),
    });
    box.fake.text("slow but complete", SLOW_REPLY);
    const client = await box.connect();
    const final = await runOnce(client, { message: "zero-1", sessionKey: "main" });
    expect(final.status).toBe("ok");
    expect(final.result.payloads[0].text).toBe("slow but complete");
  }, 40_000);

  it("an agent's own timeoutSeconds overrides the defaults, for that agent only", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        agents: {
          defaults: { timeoutSeconds: 120 },
          list: [{ id: "main" }, { id: "quick", timeoutSeconds: 1 }],
        },
      }),
    });
    const client = await box.connect();
    const fake = box.fake;
    fake.hang({ afterHeaders: true });
    const quick = runOnce(client, { message: "quick-1", sessionKey: "agent:quick:main" });
    // Side by side (each agent's runs wait only for each other): main's slow reply starts once
    // quick's request holds the hang, so each gets its own script.
    await waitUntil(() => fake.chatRequests.length === 1);
    fake.text("main is patient", SLOW_REPLY);
    const main = runOnce(client, { message: "main-1", sessionKey: "agent:main:main" });
    expect((await quick).status).toBe("timeout");
    expect((await main).status).toBe("ok");
  }, 40_000);

  it("an explicit per-call timeout still wins over the agent's", async () => {
    box = await createGatewaySandbox({
      config: () => ({ agents: { defaults: { timeoutSeconds: 0 } } }),
    });
    box.fake.hang({ afterHeaders: true });
    const client = await box.connect();
    const ack = await client.request("agent", {
      message: "call-1",
      sessionKey: "main",
      idempotencyKey: "call-1",
      timeout: 1,
    });
    const final = await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
      30_000,
    );
    expect(payloadOf(final).status).toBe("timeout");
  }, 40_000);
});

/** The run a chat request belongs to (the user message the test sent). */
function runOf(request: RecordedRequest): string {
  return /(solo|free)-\d/.exec(request.rawBody)?.[0] ?? "other";
}

describe("per-agent maxConcurrent", () => {
  it("serializes one agent's runs across sessions while another agent runs side by side", async () => {
    let openSolo!: () => void;
    const soloGate = new Promise<void>((resolve) => {
      openSolo = resolve;
    });
    let openFree!: () => void;
    const freeGate = new Promise<void>((resolve) => {
      openFree = resolve;
    });
    /** Which runs had their request at the model server when each request arrived. */
    const arrivals: string[] = [];
    ownFake = await startFakeOpenAI({
      fallback: (request) => {
        const run = runOf(request);
        arrivals.push(run);
        const reply = { kind: "text" as const, text: `reply to ${run}` };
        return { kind: "gate", until: run.startsWith("solo") ? soloGate : freeGate, answer: reply };
      },
    });
    const baseUrl = ownFake.baseUrl;
    box = await createGatewaySandbox({
      config: (): Partial<OpenClawConfig> => ({
        models: fakeProviderConfig(baseUrl),
        agents: {
          defaults: { maxConcurrent: 8 },
          list: [{ id: "main" }, { id: "solo", maxConcurrent: 1 }, { id: "free" }],
        },
      }),
    });
    const client = await box.connect();
    const send = (message: string, sessionKey: string) =>
      client.request("agent", { message, sessionKey, idempotencyKey: message });
    const acks = await Promise.all([
      send("solo-1", "agent:solo:one"),
      send("solo-2", "agent:solo:two"),
      send("free-1", "agent:free:one"),
      send("free-2", "agent:free:two"),
    ]);
    const finalOf = (index: number) =>
      client.waitFor(
        (f) => f.type === "res" && f.id === acks[index]!.id && payloadOf(f).status !== "accepted",
        30_000,
      );
    // Both runs of the unlimited agent reach the model while solo holds its one slot.
    await waitUntil(() => arrivals.filter((run) => run.startsWith("free")).length === 2);
    await waitUntil(() => arrivals.some((run) => run.startsWith("solo")));
    openFree();
    await Promise.all([finalOf(2), finalOf(3)]);
    // free's runs began and finished; solo's second run has still not reached the model.
    expect(arrivals.filter((run) => run.startsWith("solo"))).toHaveLength(1);
    const first = arrivals.find((run) => run.startsWith("solo"));
    openSolo();
    const [a, b] = await Promise.all([finalOf(0), finalOf(1)]);
    expect([payloadOf(a).status, payloadOf(b).status]).toEqual(["ok", "ok"]);
    expect(arrivals.filter((run) => run.startsWith("solo"))).toEqual(
      first === "solo-1" ? ["solo-1", "solo-2"] : ["solo-2", "solo-1"],
    );
  }, 60_000);
  it("a reload that raises an agent's cap starts its waiting run at once", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const arrivals: string[] = [];
    ownFake = await startFakeOpenAI({
      fallback: (request) => {
        arrivals.push(runOf(request));
        return { kind: "gate", until: gate, answer: { kind: "text", text: "done" } };
      },
    });
    const baseUrl = ownFake.baseUrl;
    box = await createGatewaySandbox({
      config: (): Partial<OpenClawConfig> => ({
        models: fakeProviderConfig(baseUrl),
        agents: { list: [{ id: "main" }, { id: "solo", maxConcurrent: 1 }] },
      }),
    });
    const client = await box.connect();
    const acks = await Promise.all(
      ["solo-1", "solo-2"].map((message, i) =>
        client.request("agent", {
          message,
          sessionKey: `agent:solo:s${i}`,
          idempotencyKey: message,
        }),
      ),
    );
    await waitUntil(() => arrivals.length === 1);
    const cfg = JSON.parse(readFileSync(box.configPath, "utf8")) as Loose;
    cfg.agents.list[1].maxConcurrent = 2;
    writeFileSync(box.configPath, JSON.stringify(cfg, null, 2));
    expect(box.gw.core.live.reload("test")).toMatchObject({ ok: true, changed: true });
    // The second run reaches the model while the first is still held at the gate.
    await waitUntil(() => arrivals.length === 2);
    open();
    for (const ack of acks) {
      const final = await client.waitFor(
        (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
        30_000,
      );
      expect(payloadOf(final).status).toBe("ok");
    }
  }, 60_000);
});

/** Polls a condition (the model server's view) for up to 15 s. */
async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("status, health and agents.list agree with the roster", () => {
  it("for an agents.entries config (ids normalized, the entry's identity read)", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        agents: {
          // The sandbox's default agents.list is dropped: both set is a config error.
          list: undefined,
          entries: {
            Family: { identity: { name: "Fam" } },
            ops: { id: "Ops", default: true, name: "Operations" },
          },
        },
      }),
    });
    const client = await box.connect();
    const list = payloadOf(await client.request("agents.list", {}));
    expect(list.defaultId).toBe("ops");
    expect(list.agents.map((agent: { id: string }) => agent.id)).toEqual(["family", "ops"]);
    const status = payloadOf(await client.request("status", {}));
    expect(status.agents.map((agent: { id: string }) => agent.id)).toEqual(["family", "ops"]);
    const health = payloadOf(await client.request("health", {}));
    expect(health.defaultAgentId).toBe("ops");
    expect(health.agents.map((agent: { agentId: string }) => agent.agentId)).toEqual([
      "family",
      "ops",
    ]);
    const identity = payloadOf(await client.request("agent.identity.get", { agentId: "family" }));
    expect(identity).toMatchObject({ agentId: "family", name: "Fam", nameSource: "identity" });
    box.fake.text("hello from ops");
    const run = await runOnce(client, { message: "ops-1", sessionKey: "main" });
    expect(run.status).toBe("ok");
    const after = payloadOf(await client.request("status", {}));
    const sessions = Object.fromEntries(
      after.agents.map((agent: { id: string; sessions: number }) => [agent.id, agent.sessions]),
    );
    expect(sessions).toEqual({ family: 0, ops: 1 });
  }, 40_000);

  it("for a legacy agent block folded under agents.defaults", async () => {
    box = await createGatewaySandbox({
      config: () => ({ agent: { timeoutSeconds: 5, skipBootstrap: true }, agents: { list: [] } }),
    });
    const client = await box.connect();
    const roster = loadConfig({ env: box.env }).resolved;
    expect(roster.agents.map((agent) => agent.timeoutSeconds)).toEqual([5]);
    const status = payloadOf(await client.request("status", {}));
    const list = payloadOf(await client.request("agents.list", {}));
    const expected = roster.agents.map((agent) => ({
      id: agent.id,
      isDefault: agent.isDefault,
      workspace: agent.workspace,
      model: agent.model,
    }));
    const view = (agents: Loose[]) =>
      agents.map(({ id, isDefault, workspace, model }) => ({ id, isDefault, workspace, model }));
    expect(view(status.agents)).toEqual(expected);
    expect(view(list.agents)).toEqual(expected);
    expect(list.defaultId).toBe(roster.defaultAgentId);
  }, 40_000);
});
