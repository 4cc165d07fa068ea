// Agent heartbeats in a real gateway with the fake model server and manual timers: a beat runs the
// prompt in the main session, HEARTBEAT_OK is suppressed (ok-token), an alert is delivered (sent),
// busy sessions, quiet hours and an empty HEARTBEAT.md skip, last-heartbeat/set-heartbeats (scopes),
// and a config reload reschedules.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HeartbeatTimers } from "../src/gateway/heartbeat/scheduler.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
} from "./helpers/gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";

/** Timers that fire only when the test advances them. */
class ManualTimers implements HeartbeatTimers {
  private queue: Array<{ at: number; fn: () => void; id: number }> = [];
  private nextId = 0;
  now = 0;
  set(fn: () => void, ms: number): unknown {
    const id = ++this.nextId;
    this.queue.push({ at: this.now + ms, fn, id });
    return id;
  }
  clear(handle: unknown): void {
    this.queue = this.queue.filter((timer) => timer.id !== handle);
  }
  get pending(): number[] {
    return this.queue.map((timer) => timer.at - this.now);
  }
  advance(ms: number): void {
    this.now += ms;
    const due = this.queue.filter((timer) => timer.at <= this.now);
    this.queue = this.queue.filter((timer) => timer.at > this.now);
    for (const timer of due) timer.fn();
  }
}

const sandboxes: GatewaySandbox[] = [];
afterEach(async () => {
  for (const sb of sandboxes.splice(0)) await sb.close();
});

async function start(
  heartbeat: Record<string, unknown>,
  clock?: { now(): number },
  memory?: MemoryChannel,
) {
  const timers = new ManualTimers();
  const delivered: Array<[string, string]> = [];
  const sb = await createGatewaySandbox({
    config: () => ({
      agents: { defaults: { heartbeat } } as OpenClawConfig["agents"],
      ...(memory
        ? {
            channels: {
              memory: { dmPolicy: "open", allowFrom: ["*"] },
            } as OpenClawConfig["channels"],
          }
        : {}),
    }),
    options: {
      ...(clock ? { clock } : {}),
      heartbeatTimers: timers,
      ...(memory
        ? { channels: { loaders: { memory: async () => memory.adapter } } }
        : {
            deliverHeartbeat: async (plan: { agentId: string }, text: string) => {
              delivered.push([plan.agentId, text]);
            },
          }),
    },
  });
  sandboxes.push(sb);
  const client = await sb.connect();
  const nextBeat = async (count: number): Promise<Loose> => {
    await client.waitFor(() => client.events("heartbeat").length >= count);
    return client.events("heartbeat")[count - 1].payload as Loose;
  };
  return { sb, timers, delivered, client, nextBeat };
}

/** A memory-channel gateway whose main session chatted once, then a due beat with an alert reply. */
async function alertAfterChat(heartbeat: Record<string, unknown>) {
  const memory = createMemoryChannel();
  const t = await start(heartbeat, undefined, memory);
  await memory.waitForAccount("default");
  t.sb.fake.text("hi there");
  await memory.inject({ peer: { kind: "direct", id: "77" }, text: "hello" });
  await memory.waitForSent(1);
  t.sb.fake.text("Disk is 95% full.");
  t.timers.advance(30 * 60_000);
  return { t, memory };
}

describe("gateway heartbeats", () => {
  it("delivers an alert to the chat that last used the main session (target last)", async () => {
    const { t, memory } = await alertAfterChat({ every: "30m" });
    expect(await t.nextBeat(1)).toMatchObject({ status: "sent", preview: "Disk is 95% full." });
    const [, alert] = await memory.waitForSent(2);
    expect(alert?.message.text).toBe("Disk is 95% full.");
    expect(alert?.message.target).toMatchObject({
      accountId: "default",
      peer: { kind: "direct", id: "77" },
    });
  });

  it("keeps the alert in the transcript with target none", async () => {
    const { t, memory } = await alertAfterChat({ every: "30m", target: "none" });
    expect(await t.nextBeat(1)).toMatchObject({ status: "sent" });
    expect(memory.sent).toHaveLength(1);
  });

  it("runs the prompt in the main session; HEARTBEAT_OK is suppressed, alerts are delivered", async () => {
    const t = await start({ every: "30m" });
    expect(t.timers.pending).toEqual([30 * 60_000]);
    t.sb.fake.text("HEARTBEAT_OK");
    t.timers.advance(30 * 60_000);
    const ok = await t.nextBeat(1);
    expect(ok).toMatchObject({ agentId: "main", status: "ok-token" });
    expect(ok.preview).toBeUndefined();
    expect(t.delivered).toEqual([]);
    const sent = JSON.stringify(t.sb.fake.chatRequests[0].body);
    expect(sent).toContain("Read HEARTBEAT.md if it exists (workspace context).");
    const history = payloadOf(
      await t.client.request("chat.history", { sessionKey: "agent:main:main" }),
    );
    expect(JSON.stringify(history)).toContain("Read HEARTBEAT.md if it exists");

    t.sb.fake.text("The deploy failed at 09:12; please look.");
    expect(t.timers.pending).toEqual([30 * 60_000]);
    t.timers.advance(30 * 60_000);
    const alert = await t.nextBeat(2);
    expect(alert).toMatchObject({
      status: "sent",
      preview: "The deploy failed at 09:12; please look.",
    });
    expect(typeof alert.durationMs).toBe("number");
    expect(t.delivered).toEqual([["main", "The deploy failed at 09:12; please look."]]);
    expect(payloadOf(await t.client.request("last-heartbeat", {}))).toEqual(alert);
  });

  it("reports a failed run, and skips an empty HEARTBEAT.md and quiet hours", async () => {
    const t = await start({ every: "10m" });
    t.sb.fake
      .status(500, { error: { message: "boom" } })
      .status(500)
      .status(500);
    t.timers.advance(10 * 60_000);
    expect(await t.nextBeat(1)).toMatchObject({ status: "failed" });
    const workspace = join(t.sb.home, "workspace");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "HEARTBEAT.md"), "# Heartbeat\n\n## Today\n");
    t.timers.advance(10 * 60_000);
    expect(await t.nextBeat(2)).toMatchObject({
      status: "skipped",
      reason: "empty-heartbeat-file",
    });

    const night = { now: () => Date.UTC(2026, 0, 10, 3, 0) };
    const quiet = await start(
      { every: "10m", activeHours: { start: "08:00", end: "20:00", timezone: "UTC" } },
      night,
    );
    quiet.timers.advance(10 * 60_000);
    expect(await quiet.nextBeat(1)).toMatchObject({ status: "skipped", reason: "quiet-hours" });
    expect(quiet.sb.fake.chatRequests).toHaveLength(0);
    expect(quiet.timers.pending).toEqual([10 * 60_000]);
  });

  it("skips a beat while the session is busy and retries sooner", async () => {
    const t = await start({ every: "1h" });
    t.sb.fake.hang();
    const run = await t.client.request("agent", { message: "long task", idempotencyKey: "busy-1" });
    expect(run.ok).toBe(true);
    t.timers.advance(60 * 60_000);
    expect(await t.nextBeat(1)).toMatchObject({ status: "skipped", reason: "requests-in-flight" });
    expect(t.timers.pending).toEqual([30_000]);
    await t.client.request("chat.abort", { sessionKey: "agent:main:main" });
  });

  it("set-heartbeats needs operator.admin and stops/starts the timers; reload reschedules", async () => {
    const t = await start({ every: "30m" });
    const reader = await t.sb.connect({ scopes: ["operator.read"] });
    expect(payloadOf(await reader.request("last-heartbeat", {}))).toBeNull();
    const denied = await reader.request("set-heartbeats", { enabled: false });
    expect(denied.ok).toBe(false);
    expect(JSON.stringify(denied.error)).toContain("operator.admin");
    const off = await t.client.request("set-heartbeats", { enabled: false });
    expect(payloadOf(off)).toEqual({ ok: true, enabled: false });
    expect(t.timers.pending).toEqual([]);
    expect((await t.client.request("set-heartbeats", {})).ok).toBe(false);
    await t.client.request("set-heartbeats", { enabled: true });
    expect(t.timers.pending).toEqual([30 * 60_000]);

    const cfg = JSON.parse(readFileSync(t.sb.configPath, "utf8")) as OpenClawConfig;
    cfg.agents = {
      ...cfg.agents,
      defaults: { ...cfg.agents?.defaults, heartbeat: { every: "5m" } },
    };
    writeFileSync(t.sb.configPath, JSON.stringify(cfg));
    expect(t.sb.gw.core.live.reload("test").ok).toBe(true);
    expect(t.timers.pending).toEqual([5 * 60_000]);
  });
});
