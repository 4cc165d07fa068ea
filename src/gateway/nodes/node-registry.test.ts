// The registry with fake connections: an invoke goes to the node's connection only and ends with its
// answer; an answer from another connection or for an unknown id is not taken; a timeout and a
// disconnect end the invoke with TIMEOUT / NODE_DISCONNECTED; a node that is not connected is
// NOT_CONNECTED.
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../lib/logger.js";
import type { EventFrame } from "../events/event-fanout.js";
import { type NodeConnection, NodeRegistry } from "./node-registry.js";

function fakeConn(connId: string) {
  const sent: Array<Record<string, unknown>> = [];
  const conn: NodeConnection = {
    connId,
    remoteAddress: "10.0.0.5",
    isLoopback: false,
    sendEventFrame: (frame: EventFrame) => {
      sent.push(JSON.parse(frame.compat.withSeq(1)).payload as Record<string, unknown>);
      return true;
    },
  };
  return { conn, sent };
}

const connect = (commands: string[]) =>
  ({
    minProtocol: 3,
    maxProtocol: 4,
    client: { id: "node-host", version: "1", platform: "linux", mode: "node", displayName: "box" },
    commands,
  }) as never;

describe("NodeRegistry", () => {
  it("sends the request to the node and resolves with its answer; foreign answers are ignored", async () => {
    const registry = new NodeRegistry({ now: () => 1000, logger: silentLogger });
    const { conn, sent } = fakeConn("c1");
    const other = fakeConn("c2");
    const session = registry.register({ conn, connect: connect(["system.run"]), deviceId: "dev1" });
    expect(session).toMatchObject({
      nodeId: "dev1",
      remoteIp: "10.0.0.5",
      commands: ["system.run"],
    });
    const pending = registry.invoke({
      nodeId: "dev1",
      command: "system.run",
      params: { a: 1 },
      idempotencyKey: "k",
    });
    expect(sent).toHaveLength(1);
    const request = sent[0]!;
    expect(request).toMatchObject({ nodeId: "dev1", command: "system.run", paramsJSON: '{"a":1}' });
    expect(
      registry.answer(other.conn.connId, { id: String(request.id), nodeId: "dev1", ok: true }),
    ).toBe(false);
    expect(registry.answer("c1", { id: "unknown", nodeId: "dev1", ok: true })).toBe(false);
    expect(
      registry.answer("c1", {
        id: String(request.id),
        nodeId: "dev1",
        ok: true,
        payloadJSON: '{"x":2}',
      }),
    ).toBe(true);
    expect(await pending).toEqual({ ok: true, payload: { x: 2 }, payloadJSON: '{"x":2}' });
    expect(registry.inFlight()).toBe(0);
  });

  it("ends invokes on timeout, on disconnect, and refuses nodes that are not connected", async () => {
    const registry = new NodeRegistry({ now: () => 0, logger: silentLogger });
    const { conn } = fakeConn("c1");
    registry.register({ conn, connect: connect(["system.run"]), deviceId: "dev1" });
    const timed = await registry.invoke({
      nodeId: "dev1",
      command: "system.run",
      timeoutMs: 5,
      idempotencyKey: "k",
    });
    expect(timed).toMatchObject({
      ok: false,
      error: { code: "UNAVAILABLE", details: { code: "TIMEOUT" } },
    });
    const cut = registry.invoke({ nodeId: "dev1", command: "system.run", idempotencyKey: "k2" });
    registry.unregister("c1");
    expect(await cut).toMatchObject({
      ok: false,
      error: { details: { code: "NODE_DISCONNECTED" } },
    });
    expect(registry.listConnected()).toEqual([]);
    const gone = await registry.invoke({
      nodeId: "dev1",
      command: "system.run",
      idempotencyKey: "k3",
    });
    expect(gone).toMatchObject({ ok: false, error: { details: { code: "NOT_CONNECTED" } } });
  });

  it("a node's refusal comes back as an error value naming its code", async () => {
    const registry = new NodeRegistry({ now: () => 0, logger: silentLogger });
    const { conn, sent } = fakeConn("c1");
    registry.register({ conn, connect: connect(["file.read"]), deviceId: "dev1" });
    const pending = registry.invoke({ nodeId: "dev1", command: "file.read", idempotencyKey: "k" });
    registry.answer("c1", {
      id: String(sent[0]!.id),
      nodeId: "dev1",
      ok: false,
      error: { code: "PERMISSION_DENIED", message: "outside the roots" },
    });
    expect(await pending).toMatchObject({
      ok: false,
      error: {
        code: "UNAVAILABLE",
        message: "outside the roots",
        details: { code: "PERMISSION_DENIED" },
      },
    });
  });
});
