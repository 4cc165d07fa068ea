// The shared gateway client against the real gateway (port 0, fake model server): handshake,
// requests, events, expectFinal, typed errors, connect failures; plus a tiny fake server for seq gaps.
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { deviceSigner } from "../src/client/device.js";
import {
  type ConnectGatewayOptions,
  connectGateway,
  type GatewayClient,
  type GatewayEvent,
  GatewayRequestError,
  nextChatText,
} from "../src/client/index.js";
import { createDeviceIdentity } from "../src/gateway/devices/index.js";
import {
  closedPort,
  createGatewaySandbox,
  type GatewaySandbox,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
const clients: GatewayClient[] = [];
const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  await box?.close();
  box = undefined;
});

function options(url: string, extra: Partial<ConnectGatewayOptions> = {}): ConnectGatewayOptions {
  return {
    url,
    token: TEST_TOKEN,
    client: { id: "test", version: "1.0.0", platform: "linux", mode: "test" },
    scopes: ["operator.admin", "operator.read", "operator.write"],
    timeoutMs: 5000,
    ...extra,
  };
}

async function connect(url: string, extra: Partial<ConnectGatewayOptions> = {}) {
  const client = await connectGateway(options(url, extra));
  clients.push(client);
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<GatewayRequestError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayRequestError);
  return err as GatewayRequestError;
}

/** A fake gateway: challenge, hello-ok; any later request runs `onRequest` then answers `{}`. */
async function fakeGateway(onRequest: (send: (frame: object) => void) => void): Promise<string> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  servers.push(server);
  await new Promise((done) => server.once("listening", done));
  server.on("connection", (ws) => {
    const send = (frame: object) => ws.send(JSON.stringify(frame));
    send({ type: "event", event: "connect.challenge", payload: { nonce: "n", ts: 1 } });
    ws.on("message", (data) => {
      const req = JSON.parse(data.toString()) as { id: string; method: string };
      if (req.method === "connect") {
        send({ type: "res", id: req.id, ok: true, payload: { type: "hello-ok", protocol: 4 } });
      } else {
        onRequest(send);
        send({ type: "res", id: req.id, ok: true, payload: {} });
      }
    });
  });
  const { port } = server.address() as { port: number };
  return `ws://127.0.0.1:${port}`;
}

describe("connectGateway", () => {
  it("handshakes, negotiates the protocol and answers requests by id", async () => {
    box = await createGatewaySandbox();
    const client = await connect(box.gw.url);
    expect(client.hello).toMatchObject({ type: "hello-ok", protocol: 4 });
    expect(client.hello.features.methods).toContain("health");
    const v3 = await connect(box.gw.url, { maxProtocol: 3 });
    expect(v3.hello.protocol).toBe(3);
    const [health, agents] = await Promise.all([
      client.request<{ ok: boolean }>("health"),
      client.request<{ defaultId: string }>("agents.list"),
    ]);
    expect(health.ok).toBe(true);
    expect(agents.defaultId).toBe("main");
  });

  it("expectFinal waits past the ack for the final; events stream with seq", async () => {
    box = await createGatewaySandbox();
    box.fake.text("Hello from the gateway", { chunks: 3 });
    const client = await connect(box.gw.url);
    const events: GatewayEvent[] = [];
    const all: string[] = [];
    const off = client.onEvent("agent", (event) => events.push(event));
    client.onEvent("*", (event) => all.push(event.event));
    const acks: unknown[] = [];
    const final = await client.request<{
      status: string;
      result: { payloads: Array<{ text: string }> };
    }>(
      "agent",
      { message: "hi", idempotencyKey: "c-run-1" },
      { expectFinal: true, onAccepted: (ack) => acks.push(ack) },
    );
    expect(acks).toEqual([expect.objectContaining({ runId: "c-run-1", status: "accepted" })]);
    expect(final.status).toBe("ok");
    expect(final.result.payloads[0]?.text).toBe("Hello from the gateway");
    const streams = events.map((e) => (e.payload as { stream: string }).stream);
    expect(streams[0]).toBe("lifecycle");
    expect(streams).toContain("assistant");
    const seqs = events.map((e) => e.seq ?? 0);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(all).toContain("agent");
    expect(all).not.toContain("gap");
    off();
    const before = events.length;
    box.fake.text("again", { chunks: 1 });
    await client.request(
      "agent",
      { message: "hi", idempotencyKey: "c-run-2" },
      { expectFinal: true },
    );
    expect(events.length).toBe(before);
  });

  it("declares caps: a text-deltas client rebuilds the reply from chat deltas, without agent text", async () => {
    let t = 1_700_000_000_000;
    box = await createGatewaySandbox({ options: { clock: { now: () => (t += 1) } } });
    const reply = "streamed in many small pieces ".repeat(60);
    box.fake.text(reply, { chunks: 300 });
    const client = await connect(box.gw.url, { caps: ["text-deltas"] });
    expect(client.hello.features.capabilities).toContain("text-deltas");
    const streams: string[] = [];
    client.onEvent("agent", (event) => streams.push((event.payload as { stream: string }).stream));
    let text = "";
    let deltas = 0;
    client.onEvent("chat", (event) => {
      const chat = event.payload as { state: string; message?: unknown };
      if (chat.state === "delta") {
        deltas++;
        expect(chat.message).toBeUndefined();
      }
      text = nextChatText(text, chat).text;
    });
    const final = await client.request<{ status: string }>(
      "agent",
      { message: "hi", idempotencyKey: "c-caps-1" },
      { expectFinal: true },
    );
    expect(final.status).toBe("ok");
    expect(deltas).toBeGreaterThan(1);
    expect(text).toBe(reply);
    expect(streams).toContain("lifecycle");
    expect(streams).not.toContain("assistant");
  });

  it("without expectFinal resolves with the ack", async () => {
    box = await createGatewaySandbox();
    box.fake.text("x", { chunks: 1 });
    const client = await connect(box.gw.url);
    const ack = await client.request<{ status: string }>("agent", {
      message: "hi",
      idempotencyKey: "a1",
    });
    expect(ack.status).toBe("accepted");
  });

  it("rejects with typed errors: server codes, details, and the method", async () => {
    box = await createGatewaySandbox();
    const client = await connect(box.gw.url);
    const invalid = await rejection(client.request("agent", { message: "hi" }));
    expect(invalid).toMatchObject({ code: "INVALID_REQUEST", method: "agent" });
    expect(invalid.message).toContain("idempotencyKey");
    const unknown = await rejection(client.request("no.such.method"));
    expect(unknown).toMatchObject({
      code: "INVALID_REQUEST",
      message: "unknown method: no.such.method",
    });
    const reader = await connect(box.gw.url, { scopes: ["operator.read"] });
    const forbidden = await rejection(reader.request("config.get"));
    expect(forbidden).toMatchObject({ code: "FORBIDDEN", method: "config.get" });
    expect(forbidden.detailCode).toBe("MISSING_SCOPE");
    const ghost = await rejection(
      client.request("agent", { message: "hi", idempotencyKey: "g", agentId: "ghost" }),
    );
    expect(ghost.detailCode).toBe("UNKNOWN_AGENT_ID");
    expect(await client.request<{ ok: boolean }>("health")).toMatchObject({ ok: true });
  });

  it("reports connect failures: unreachable, bad token, bad url, timeout", async () => {
    const port = await closedPort();
    const down = await rejection(connectGateway(options(`ws://127.0.0.1:${port}`)));
    expect(down.code).toBe("UNREACHABLE");
    expect(down.message).toContain(`gateway not reachable at ws://127.0.0.1:${port}`);
    const bad = await rejection(connectGateway(options("not a url")));
    expect(bad.code).toBe("UNREACHABLE");

    box = await createGatewaySandbox();
    const refused = await rejection(connectGateway(options(box.gw.url, { token: "wrong" })));
    expect(refused).toMatchObject({ code: "INVALID_REQUEST", method: "connect" });
    expect(refused.detailCode).toBe("AUTH_TOKEN_MISMATCH");

    const silent = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    servers.push(silent);
    await new Promise((done) => silent.once("listening", done));
    const silentUrl = `ws://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const slow = await rejection(connectGateway(options(silentUrl, { timeoutMs: 200 })));
    expect(slow.code).toBe("TIMEOUT");
  });

  it("proves a device identity when given a signer", async () => {
    box = await createGatewaySandbox();
    const identity = createDeviceIdentity();
    const client = await connect(box.gw.url, { device: deviceSigner(identity) });
    expect(client.hello.auth).toMatchObject({ role: "operator", deviceToken: expect.any(String) });
  });

  it("rejects pending requests with CLOSED when the gateway goes away, and closes cleanly", async () => {
    box = await createGatewaySandbox();
    box.fake.text("slow", { chunks: 10, delayMs: 200 });
    const client = await connect(box.gw.url);
    const pending = client.request(
      "agent",
      { message: "hi", idempotencyKey: "cl" },
      { expectFinal: true },
    );
    await new Promise((done) => setTimeout(done, 50));
    await client.close();
    expect((await rejection(pending)).code).toBe("CLOSED");
    expect((await client.closed).code).toBe(1000);
    expect((await rejection(client.request("health"))).code).toBe("CLOSED");
  });

  it("surfaces a gap in event seq as a `gap` event", async () => {
    const url = await fakeGateway((send) => {
      send({ type: "event", event: "tick", payload: {}, seq: 1 });
      send({ type: "event", event: "tick", payload: {}, seq: 3 });
    });
    const client = await connect(url);
    const seen: GatewayEvent[] = [];
    client.onEvent("*", (event) => seen.push(event));
    await client.request("poke");
    expect(seen.map((event) => event.event)).toEqual(["tick", "gap", "tick"]);
    expect(seen[1]?.payload).toEqual({ expected: 2, received: 3 });
  });
});
