// The `text-deltas` connect cap over a real gateway and real WS clients: a long reply streamed in
// small deltas costs a text-deltas watcher at most 3× the reply in event bytes and it rebuilds the
// exact text, an OpenClaw-shape client beside it gets today's frames, and a slow text-deltas client
// whose deltas were skipped still rebuilds the exact text. The gateway's clock is steered; byte
// counts do not depend on the wall clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

const REPLY = "0123456789abcdef".repeat(250); // 4,000 characters
const DELTAS = 250;
const CAPS = { caps: ["text-deltas"] };

/** A clock the test steers: each read moves it by `step` ms (0: frozen). */
const clock = { t: 1_700_000_000_000, step: 0, now: () => (clock.t += clock.step) };

/** Counts the UTF-8 bytes of every event frame of `runId` a client receives. */
function countEventBytes(client: TestClient, runId: string): { bytes: number } {
  const counter = { bytes: 0 };
  client.ws.on("message", (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as Frame;
    if (frame.type === "event" && payloadOf(frame)?.runId === runId) counter.bytes += data.length;
  });
  return counter;
}

function runEvents(client: TestClient, runId: string, event: string): Loose[] {
  return client
    .events(event)
    .map(payloadOf)
    .filter((payload) => payload.runId === runId);
}

/** The text a client rebuilds from its chat events: `replace ? deltaText : text + deltaText`. */
function rebuilt(client: TestClient, runId: string): string {
  let text = "";
  for (const chat of runEvents(client, runId, "chat")) {
    if (typeof chat.deltaText !== "string") continue;
    text = chat.replace === true ? chat.deltaText : text + chat.deltaText;
  }
  return text;
}

async function turn(box: GatewaySandbox, sender: TestClient, runId: string, waiters: TestClient[]) {
  box.fake.text(REPLY, { chunks: DELTAS });
  const res = await sender.request("agent", {
    message: "write",
    sessionKey: runId,
    idempotencyKey: runId,
  });
  expect(res.ok).toBe(true);
  for (const client of waiters) {
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === runId && payloadOf(f).state === "final",
      30_000,
    );
  }
}

describe("text-deltas connect cap", () => {
  let box: GatewaySandbox;

  beforeAll(async () => {
    box = await createGatewaySandbox({
      options: { clock, maxBufferedBytes: 512 * 1024 * 1024 },
    });
  });

  afterAll(async () => {
    await box?.close();
  });

  it("is listed in hello-ok features.capabilities", async () => {
    const client = await box.connect();
    const hello = payloadOf(client.responses("r1")[0] as Frame);
    expect(hello.features.capabilities).toContain("text-deltas");
    client.close();
  });

  // Frozen: every delta within the first one's window; 1 ms per clock read: a window is crossed
  // every few dozen deltas (a model streaming faster than one delta per window, as they do).
  for (const [pace, step] of [
    ["a fast model", 0],
    ["a paced model", 1],
  ] as const) {
    it(`costs a watcher at most 3× the reply and rebuilds it exactly (${pace})`, async () => {
      clock.step = step;
      const runId = `td-${step}`;
      const sender = await box.connect();
      const watcher = await box.connect(CAPS);
      const compat = await box.connect();
      const watcherBytes = countEventBytes(watcher, runId);
      const compatBytes = countEventBytes(compat, runId);
      await turn(box, sender, runId, [watcher, compat]);
      expect(watcherBytes.bytes).toBeLessThanOrEqual(3 * REPLY.length);
      expect(compatBytes.bytes).toBeGreaterThan(3 * REPLY.length);
      expect(rebuilt(watcher, runId)).toBe(REPLY);
      const chats = runEvents(watcher, runId, "chat");
      const final = chats.at(-1) as Loose;
      expect(final.state).toBe("final");
      expect(final.message.content[0].text).toBe(REPLY);
      for (const delta of chats.filter((c) => c.state === "delta")) {
        expect(delta.message).toBeUndefined();
        expect(delta.replace).toBeUndefined();
      }
      if (step > 0) expect(chats.length).toBeGreaterThan(3);
      // Every agent event but the assistant ones, as the OpenClaw-shape client gets them.
      const agent = runEvents(watcher, runId, "agent");
      expect(agent.filter((a) => a.stream === "assistant")).toHaveLength(0);
      const others = runEvents(compat, runId, "agent").filter((a) => a.stream !== "assistant");
      expect(agent).toEqual(others);
      expect(agent.map((a) => a.data.phase)).toContain("end");
      // The OpenClaw-shape client beside it: today's agent and chat frames.
      const assistant = runEvents(compat, runId, "agent").filter((a) => a.stream === "assistant");
      expect(assistant.length).toBeGreaterThan(0);
      expect(Object.keys(assistant[0]?.data)).toEqual(["text", "delta"]);
      expect(assistant.map((a) => a.data.delta).join("")).toBe(REPLY);
      expect(assistant.at(-1)?.data.text).toBe(REPLY);
      const compatChats = runEvents(compat, runId, "chat");
      const head = ["runId", "sessionKey", "agentId", "seq", "state"];
      for (const delta of compatChats.filter((c) => c.state === "delta")) {
        expect(Object.keys(delta)).toEqual([...head, "deltaText", "message"]);
      }
      expect(compatChats.filter((c) => c.state === "delta").length).toBe(
        chats.filter((c) => c.state === "delta").length,
      );
      expect(Object.keys(compatChats.at(-1) as Loose)).toEqual([
        ...head,
        "message",
        "usage",
        "stopReason",
      ]);
      for (const client of [sender, watcher, compat]) client.close();
    });
  }

  it("lets a slow text-deltas client whose deltas were skipped rebuild the exact text", async () => {
    clock.step = 1000;
    const sender = await box.connect(CAPS);
    const slow = await box.connect(CAPS);
    // ws's public pause(): the slow client stops reading; 40 MB of ticks fill the kernel buffers
    // and leave the gateway's outgoing buffer of it far above the slow-client bound.
    slow.ws.pause();
    const pad = "x".repeat(1024 * 1024);
    for (let i = 0; i < 40; i++) box.gw.core.broadcast("tick", { ts: i, pad });
    await sender.waitFor((f) => f.event === "tick" && payloadOf(f).ts === 39, 30_000);
    await turn(box, sender, "td-slow", [sender]);
    expect(rebuilt(sender, "td-slow")).toBe(REPLY);
    slow.ws.resume();
    await slow.waitFor(
      (f) =>
        f.event === "chat" && payloadOf(f).runId === "td-slow" && payloadOf(f).state === "final",
      30_000,
    );
    const chats = runEvents(slow, "td-slow", "chat");
    expect(chats.filter((c) => c.state === "delta")).toHaveLength(0);
    expect(chats.at(-1)).toMatchObject({ state: "final", replace: true });
    expect(rebuilt(slow, "td-slow")).toBe(REPLY);
    sender.close();
    slow.close();
  }, 60_000);
});
