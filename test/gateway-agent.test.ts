// The agent RPC end to end: ack then final on the same id, stream event order, idempotency,
// agent.wait, chat.send/abort events, and a graceful shutdown with a run in flight.
import { afterEach, describe, expect, it } from "vitest";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe("gateway agent runs", () => {
  it("acks, then answers the final on the same request id, with ordered events", async () => {
    box = await createGatewaySandbox();
    box.fake.text("Hello there, friend", { chunks: 3 });
    const client = await box.connect();
    const ack = await client.request("agent", {
      message: "hi",
      idempotencyKey: "idem-1",
      sessionKey: "main",
    });
    expect(ack.ok).toBe(true);
    expect(payloadOf(ack)).toMatchObject({
      runId: "idem-1",
      status: "accepted",
      sessionKey: "agent:main:main",
      agentId: "main",
      acceptedAt: expect.any(Number),
    });
    const final = await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
    );
    expect(payloadOf(final)).toMatchObject({ runId: "idem-1", status: "ok", summary: "completed" });
    expect(payloadOf(final).result.payloads[0].text).toBe("Hello there, friend");
    const agentEvents = client
      .events("agent")
      .map(payloadOf)
      .filter((p) => p.runId === "idem-1");
    const phases = agentEvents.map((p) =>
      p.stream === "lifecycle" ? `lifecycle:${p.data.phase}` : p.stream,
    );
    expect(phases[0]).toBe("lifecycle:start");
    expect(phases.at(-1)).toBe("lifecycle:end");
    const firstDelta = phases.indexOf("assistant");
    expect(firstDelta).toBeGreaterThan(0);
    expect(phases.lastIndexOf("assistant")).toBeLessThan(phases.length - 1);
    expect(agentEvents.filter((p) => p.stream === "assistant").at(-1)?.data.text).toBe(
      "Hello there, friend",
    );
    expect(agentEvents.map((p) => p.seq)).toEqual(agentEvents.map((_, i) => i + 1));
    const seqs = client.frames
      .filter((f) => f.type === "event" && f.seq !== undefined)
      .map((f) => f.seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const chat = client.events("chat").map(payloadOf);
    expect(chat.at(-1)).toMatchObject({ state: "final", runId: "idem-1" });
  });

  it("dedupes by idempotencyKey: in_flight while live, the cached final after", async () => {
    box = await createGatewaySandbox();
    box.fake.text("slow answer", { chunks: 4, delayMs: 80 });
    const client = await box.connect();
    const first = await client.request("agent", { message: "hi", idempotencyKey: "dup-1" });
    const dup = await client.request("agent", { message: "hi", idempotencyKey: "dup-1" });
    expect(payloadOf(dup)).toMatchObject({ runId: "dup-1", status: "in_flight" });
    const wait = await client.request("agent.wait", { runId: "dup-1", timeoutMs: 5000 }, 8000);
    expect(payloadOf(wait)).toMatchObject({
      runId: "dup-1",
      status: "ok",
      startedAt: expect.any(Number),
      endedAt: expect.any(Number),
    });
    await client.waitFor(
      (f) => f.type === "res" && f.id === first.id && payloadOf(f).status === "ok",
    );
    const again = await client.request("agent", { message: "hi", idempotencyKey: "dup-1" });
    expect(payloadOf(again)).toMatchObject({ runId: "dup-1", status: "ok", summary: "completed" });
    expect(box.fake.chatRequests.length).toBe(1);
  });

  it("agent.wait times out without cancelling, and reports unknown runs as timeout", async () => {
    box = await createGatewaySandbox();
    box.fake.text("late", { chunks: 2, delayMs: 300 });
    const client = await box.connect();
    await client.request("agent", { message: "hi", idempotencyKey: "w-1" });
    const early = await client.request("agent.wait", { runId: "w-1", timeoutMs: 10 });
    expect(payloadOf(early).status).toBe("timeout");
    const done = await client.request("agent.wait", { runId: "w-1", timeoutMs: 5000 }, 8000);
    expect(payloadOf(done).status).toBe("ok");
    const unknown = await client.request("agent.wait", { runId: "nope", timeoutMs: 0 });
    expect(payloadOf(unknown)).toEqual({ runId: "nope", status: "timeout" });
  });

  it("validates agent params like OpenClaw", async () => {
    box = await createGatewaySandbox();
    const client = await box.connect();
    const res = await client.request("agent", { message: "hi" });
    expect(res.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: "invalid agent params: must have required property 'idempotencyKey'",
    });
    const unknown = await client.request("agent", {
      message: "hi",
      idempotencyKey: "u",
      agentId: "ghost",
    });
    expect(unknown.error).toMatchObject({ details: { code: "UNKNOWN_AGENT_ID" } });
  });

  it("chat.send streams chat events; chat.abort aborts; chat.history reads the transcript", async () => {
    box = await createGatewaySandbox();
    box.fake.text("first reply", { chunks: 2 });
    box.fake.text("never finished", { chunks: 20, delayMs: 100 });
    const client = await box.connect();
    const sent = await client.request("chat.send", {
      sessionKey: "main",
      message: "hello",
      idempotencyKey: "c-1",
    });
    expect(payloadOf(sent)).toEqual({ runId: "c-1", status: "started" });
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).state === "final" && payloadOf(f).runId === "c-1",
    );
    const history = await client.request("chat.history", { sessionKey: "main" });
    const roles = (payloadOf(history).messages as Array<{ role: string }>).map((m) => m.role);
    expect(roles).toEqual(["user", "assistant"]);
    await client.request("chat.send", {
      sessionKey: "main",
      message: "again",
      idempotencyKey: "c-2",
    });
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).state === "delta" && payloadOf(f).runId === "c-2",
    );
    const aborted = await client.request("chat.abort", { sessionKey: "main" });
    expect(payloadOf(aborted)).toMatchObject({ ok: true, aborted: true, runIds: ["c-2"] });
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === "c-2" && payloadOf(f).state === "aborted",
    );
  });

  it("shuts down gracefully with a run in flight: shutdown event, run finishes, socket closed", async () => {
    const sandbox = await createGatewaySandbox({ options: { drainTimeoutMs: 5000 } });
    sandbox.fake.text("finishing during shutdown", { chunks: 4, delayMs: 100 });
    const client = await sandbox.connect();
    const ack = await client.request("agent", { message: "hi", idempotencyKey: "s-1" });
    await client.waitFor((f) => f.event === "agent" && payloadOf(f).stream === "assistant");
    const closing = sandbox.close();
    await client.waitFor((f) => f.event === "shutdown");
    const final = await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status === "ok",
    );
    expect(payloadOf(final).result.payloads[0].text).toBe("finishing during shutdown");
    expect((await client.closed).code).toBe(1012);
    await closing;
  });
});
