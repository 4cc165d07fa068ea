// Malformed WebSocket frames against the real gateway: binary, non-JSON, non-object, id-less,
// unknown type, missing or mistyped method, oversized, invalid UTF-8 — before and after `connect`.
// After `connect` each gets an error frame (on its id, else "invalid") and the connection stays;
// before `connect` each closes with a code and a reason (after an error frame when the id is known).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  openClient,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
beforeAll(async () => {
  box = await createGatewaySandbox();
});
afterAll(async () => {
  await box.close();
});

/** The close of a client, or a failure naming the frames seen if the gateway stays silent. */
async function closeOf(client: TestClient): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no close; frames: ${JSON.stringify(client.frames.slice(-3))}`)),
      10_000,
    );
  });
  try {
    return await Promise.race([client.closed, silent]);
  } finally {
    clearTimeout(timer);
  }
}

function errorOf(frame: Frame): { code: string; message: string } {
  return frame.error as { code: string; message: string };
}

/** Frames with no usable id, the close each gets before `connect`, and the reason it names. */
const UNANSWERABLE: Array<[string, string | Buffer, boolean, number, RegExp]> = [
  ["binary", Buffer.from('{"type":"req","id":"b1","method":"health"}'), true, 1003, /binary/],
  ["not JSON", "{type: req", false, 1007, /not valid JSON/],
  ["empty text", "", false, 1007, /not valid JSON/],
  ["a number", "42", false, 1008, /must be a JSON object, got number/],
  ["null", "null", false, 1008, /must be a JSON object, got null/],
  ["an array", '[{"type":"req","id":"a","method":"health"}]', false, 1008, /got an array/],
  ["a string", '"hello"', false, 1008, /must be a JSON object, got string/],
  ["req without id", '{"type":"req","method":"health"}', false, 1008, /property 'id'/],
  ["numeric id", '{"type":"req","id":7,"method":"health"}', false, 1008, /at \/id: must be string/],
  ["empty id", '{"type":"req","id":"","method":"health"}', false, 1008, /at \/id/],
];

function send(client: TestClient, data: string | Buffer, binary: boolean): void {
  client.ws.send(data, { binary });
}

describe("malformed frames after connect", () => {
  for (const [label, data, binary, , reason] of UNANSWERABLE) {
    it(`answers an error frame (id "invalid") on ${label} and stays open`, async () => {
      const client = await box.connect();
      send(client, data, binary);
      const res = await client.waitFor((f) => f.type === "res" && f.id === "invalid", 10_000);
      expect(res.ok, label).toBe(false);
      expect(errorOf(res).code, label).toBe("INVALID_REQUEST");
      expect(errorOf(res).message, label).toMatch(reason);
      expect((await client.request("health")).ok, label).toBe(true);
      client.close();
    });
  }

  it("closes 1007 with a reason on a text frame that is not UTF-8", async () => {
    const client = await box.connect();
    send(client, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), false);
    const closed = await closeOf(client);
    expect(closed.code).toBe(1007);
    expect(closed.reason).toMatch(/UTF-8/);
  });

  it("answers an error frame naming the problem when the id is known, and stays open", async () => {
    const client = await box.connect();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["t1", { type: "event", id: "t1", event: "x" }, /at \/type: must be equal to constant "req"/],
      ["t2", { type: "res", id: "t2", ok: true }, /at \/type/],
      ["m1", { type: "req", id: "m1" }, /must have required property 'method'/],
      ["m2", { type: "req", id: "m2", method: 5 }, /at \/method: must be string/],
      ["m3", { type: "req", id: "m3", method: "" }, /at \/method/],
      ["m4", { type: "req", id: "m4", method: "health", bogus: 1 }, /unexpected property 'bogus'/],
      ["m5", { id: "m5", method: "health" }, /must have required property 'type'/],
    ];
    for (const [id, frame, message] of cases) {
      client.sendRaw(JSON.stringify(frame));
      const res = await client.waitFor((f) => f.type === "res" && f.id === id);
      expect(res.ok, id).toBe(false);
      expect(errorOf(res).code, id).toBe("INVALID_REQUEST");
      expect(errorOf(res).message, id).toMatch(/^invalid request frame: /);
      expect(errorOf(res).message, id).toMatch(message);
    }
    const health = await client.request("health");
    expect(health.ok).toBe(true);
    client.close();
  });

  it("closes 1009 with the limit in the reason on a frame over 25 MiB", async () => {
    const client = await box.connect();
    const pad = "x".repeat(25 * 1024 * 1024 + 16);
    client.sendRaw(`{"type":"req","id":"big","method":"health","params":{"p":"${pad}"}}`);
    const closed = await closeOf(client);
    expect(closed.code).toBe(1009);
    expect(closed.reason).toMatch(/frame too large: limit 26214400 bytes/);
  });
});

describe("malformed frames before connect", () => {
  for (const [label, data, binary, code, reason] of UNANSWERABLE) {
    it(`closes with ${code} and a reason on ${label}`, async () => {
      const client = await openClient(box.gw.url);
      send(client, data, binary);
      const closed = await closeOf(client);
      expect(closed.code, label).toBe(code);
      expect(closed.reason, label).toMatch(reason);
    });
  }

  it("answers an error frame and closes 1008 when the id is known", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: "req", id: "c1", method: 5 }, /at \/method: must be string/],
      [{ type: "event", id: "c2", event: "connect" }, /at \/type/],
      [{ type: "req", id: "c3" }, /property 'method'/],
    ];
    for (const [frame, message] of cases) {
      const client = await openClient(box.gw.url);
      client.sendRaw(JSON.stringify(frame));
      const res = await client.waitFor((f) => f.type === "res" && f.id === frame.id);
      expect(errorOf(res).code).toBe("INVALID_REQUEST");
      expect(errorOf(res).message).toMatch(message);
      const closed = await closeOf(client);
      expect(closed.code).toBe(1008);
      expect(closed.reason).toMatch(message);
    }
  });

  it("closes 1009 with the pre-connect limit in the reason on a frame over 64 KiB", async () => {
    const client = await openClient(box.gw.url);
    client.sendRaw(
      JSON.stringify({ type: "req", id: "x", method: "connect", pad: "y".repeat(70_000) }),
    );
    const closed = await closeOf(client);
    expect(closed.code).toBe(1009);
    expect(closed.reason).toBe("frame too large: limit 65536 bytes");
  });

  it("keeps a close reason within 123 bytes when the problem names a long multi-byte key", async () => {
    const client = await openClient(box.gw.url);
    client.sendRaw(JSON.stringify({ type: "req", method: "connect", ["é".repeat(200)]: 1 }));
    const closed = await closeOf(client);
    expect(closed.code).toBe(1008);
    expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
    expect(closed.reason).toMatch(/^invalid request frame: /);
  });
});
