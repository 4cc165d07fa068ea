// Event fan-out over a real gateway and real WS clients: streamed text coalesced per 150 ms window
// (the gateway's injected clock decides, never the wall clock), the final always whole, agent deltas
// that add up to the text, chat deltas skipped for a slow client (never its final), sessions.changed
// only to subscribers, and a per-connection seq.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

const REPLY = "0123456789abcdef".repeat(250); // 4,000 characters
const DELTAS = 250;

/** A clock the test steers: each read moves it by `step` ms (0: frozen). */
const clock = { t: 1_700_000_000_000, step: 0, now: () => (clock.t += clock.step) };

function ofRun(runId: string) {
  return (frame: Frame) => frame.type === "event" && payloadOf(frame).runId === runId;
}

function chatFrames(client: TestClient, runId: string, state?: string): Frame[] {
  return client
    .events("chat")
    .filter(ofRun(runId))
    .filter((frame) => state === undefined || payloadOf(frame).state === state);
}

function assistantFrames(client: TestClient, runId: string): Frame[] {
  return client
    .events("agent")
    .filter(ofRun(runId))
    .filter((frame) => payloadOf(frame).stream === "assistant");
}

function finalText(client: TestClient, runId: string): string {
  const final = chatFrames(client, runId, "final")[0];
  return payloadOf(final as Frame).message.content[0].text;
}

async function turn(box: GatewaySandbox, client: TestClient, runId: string) {
  box.fake.text(REPLY, { chunks: DELTAS });
  const res = await client.request("agent", {
    message: "write",
    sessionKey: runId,
    idempotencyKey: runId,
  });
  expect(res.ok).toBe(true);
  await client.waitFor(
    (f) => ofRun(runId)(f) && f.event === "chat" && payloadOf(f).state === "final",
  );
}

describe("gateway event fan-out", () => {
  let box: GatewaySandbox;

  beforeAll(async () => {
    box = await createGatewaySandbox({
      options: { clock, maxBufferedBytes: 512 * 1024 * 1024 },
    });
  });

  afterAll(async () => {
    await box?.close();
  });

  it("coalesces a fast stream into few events; the final and the agent deltas carry all of it", async () => {
    clock.step = 0; // every delta within the window of the first
    const client = await box.connect();
    await turn(box, client, "fast-1");
    const chatDeltas = chatFrames(client, "fast-1", "delta");
    const assistant = assistantFrames(client, "fast-1");
    expect(chatDeltas.length).toBeGreaterThanOrEqual(1);
    expect(chatDeltas.length).toBeLessThanOrEqual(2);
    expect(assistant.length).toBeLessThanOrEqual(3);
    expect(finalText(client, "fast-1")).toBe(REPLY);
    // OpenClaw's agent shape: text so far plus the delta; the deltas add up to the text.
    const deltas = assistant.map((frame) => payloadOf(frame).data.delta).join("");
    expect(deltas).toBe(REPLY);
    expect(payloadOf(assistant.at(-1) as Frame).data.text).toBe(REPLY);
    // Held text goes out before the lifecycle end.
    const agent = client.events("agent").filter(ofRun("fast-1"));
    const end = agent.findIndex((f) => payloadOf(f).data.phase === "end");
    expect(agent.indexOf(assistant.at(-1) as Frame)).toBeLessThan(end);
    client.close();
  });

  it("sends one chat delta per window when the clock moves past it between deltas", async () => {
    clock.step = 1000; // every read is a window later: nothing is held
    const client = await box.connect();
    await turn(box, client, "paced-1");
    const chatDeltas = chatFrames(client, "paced-1", "delta");
    expect(chatDeltas.length).toBeGreaterThan(DELTAS / 2);
    expect(chatDeltas.map((f) => payloadOf(f).deltaText).join("")).toBe(REPLY);
    expect(payloadOf(chatDeltas.at(-1) as Frame).message.content[0].text).toBe(REPLY);
    expect(finalText(client, "paced-1")).toBe(REPLY);
    client.close();
  });

  it("skips chat deltas for a slow client, never its final or its agent events", async () => {
    clock.step = 1000;
    const fast = await box.connect();
    const slow = await box.connect();
    // ws's public pause(): the slow client stops reading; 40 MB of ticks fill the kernel buffers
    // and leave the gateway's outgoing buffer of it far above the slow-client bound.
    slow.ws.pause();
    const pad = "x".repeat(1024 * 1024);
    for (let i = 0; i < 40; i++) box.gw.core.broadcast("tick", { ts: i, pad });
    // The fast client reads them all: its buffer is empty again, the slow one's is not.
    await fast.waitFor((f) => f.event === "tick" && payloadOf(f).ts === 39, 30_000);
    await turn(box, fast, "slow-1");
    expect(chatFrames(fast, "slow-1", "delta").length).toBeGreaterThan(DELTAS / 2);
    slow.ws.resume();
    await slow.waitFor((f) => ofRun("slow-1")(f) && payloadOf(f).state === "final", 30_000);
    expect(chatFrames(slow, "slow-1", "delta")).toHaveLength(0);
    expect(finalText(slow, "slow-1")).toBe(REPLY);
    const deltas = assistantFrames(slow, "slow-1").map((f) => payloadOf(f).data.delta);
    expect(deltas.join("")).toBe(REPLY);
    expect(box.gw.connectionCount()).toBeGreaterThanOrEqual(2);
    fast.close();
    slow.close();
  }, 60_000);

  it("sends sessions.changed only to subscribed clients, with each client's own seq", async () => {
    clock.step = 0;
    const watcher = await box.connect();
    const other = await box.connect();
    expect(payloadOf(await watcher.request("sessions.subscribe", {}))).toEqual({
      subscribed: true,
    });
    await turn(box, other, "sub-1");
    await watcher.waitFor((f) => f.event === "sessions.changed" && payloadOf(f).sessionKey);
    // The fan-out is synchronous: a response asked for after it arrives after any event it sent.
    await other.request("health");
    expect(other.events("sessions.changed")).toHaveLength(0);
    expect(payloadOf(await watcher.request("sessions.unsubscribe", {}))).toEqual({
      subscribed: false,
    });
    await turn(box, other, "sub-2");
    await watcher.request("health");
    expect(watcher.events("sessions.changed")).toHaveLength(1);
    for (const client of [watcher, other]) {
      const seqs = client.frames
        .filter((f) => f.type === "event" && f.event !== "connect.challenge")
        .map((f) => f.seq as number);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    }
    watcher.close();
    other.close();
  });
});
