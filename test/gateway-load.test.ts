// Robustness: presence expiry with an injected clock, 200 clients at once, a fuzz of malformed
// frames after which `health` still answers, and a slow consumer dropped at the buffer bound.
import { afterEach, describe, expect, it } from "vitest";
import { PresenceTable } from "../src/gateway/index.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  openClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe("presence", () => {
  it("expires beacons after 5 minutes, keeps live rows, caps at 200", () => {
    let now = 1_000_000;
    const table = new PresenceTable({ now: () => now, version: "t", instanceId: "self" });
    table.beacon({ instanceId: "laptop", text: "Node: laptop", ip: "127.0.0.1", roles: ["a"] });
    table.beacon({ instanceId: "LAPTOP", lastInputSeconds: 5, roles: ["b"] });
    expect(table.connect("c1", { mode: "cli" })).toBe(false);
    expect(table.connect("c2", { mode: "ui", ip: "10.0.0.9" })).toBe(true);
    const rows = table.list();
    const laptop = rows.find((row) => row.instanceId?.toLowerCase() === "laptop");
    expect(laptop).toMatchObject({ text: "Node: laptop", lastInputSeconds: 5, roles: ["a", "b"] });
    expect(laptop?.ip).toBeUndefined();
    expect(rows).toHaveLength(3);
    const version = table.version;
    now += 300_001;
    expect(table.list().map((row) => row.mode)).toEqual(["gateway", "ui"]);
    expect(table.version).toBeGreaterThan(version);
    for (let i = 0; i < 250; i++) table.beacon({ instanceId: `n${i}` });
    expect(table.list()).toHaveLength(200);
  });
});

describe("gateway under load", () => {
  it("handles 200 clients connecting at once", async () => {
    box = await createGatewaySandbox();
    const clients = await Promise.all(Array.from({ length: 200 }, () => box!.connect()));
    expect(box.gw.connectionCount()).toBe(200);
    const answers = await Promise.all(clients.map((client) => client.request("health")));
    expect(answers.every((res) => res.ok)).toBe(true);
    for (const client of clients) client.close();
  }, 30_000);

  it("survives random and malformed frames and still answers health", async () => {
    box = await createGatewaySandbox();
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const junk = () => {
      const pick = Math.floor(rand() * 8);
      const id = `f${Math.floor(rand() * 1e6)}`;
      if (pick === 0)
        return Buffer.from(Array.from({ length: 64 }, () => Math.floor(rand() * 256)));
      if (pick === 1) return "{not json";
      if (pick === 2)
        return JSON.stringify({
          type: "req",
          id,
          method: "agent",
          params: rand() > 0.5 ? null : [1, 2],
        });
      if (pick === 3) return JSON.stringify({ type: "res", id, ok: true });
      if (pick === 4)
        return JSON.stringify({ type: "req", id, method: "sessions.patch", params: { key: 1 } });
      if (pick === 5) return JSON.stringify({ type: "req", id, method: `x.${id}`, params: {} });
      if (pick === 6)
        return JSON.stringify({
          type: "req",
          id,
          method: "chat.history",
          params: { sessionKey: "" },
        });
      return JSON.stringify([null, { deep: { deeper: [id] } }]);
    };
    const connected = await box.connect();
    for (let i = 0; i < 300; i++) connected.sendRaw(junk());
    for (let i = 0; i < 40; i++) {
      const raw = await openClient(box.gw.url);
      raw.sendRaw(junk());
      raw.sendRaw(
        JSON.stringify({ type: "req", id: "c", method: "connect", params: { junk: rand() } }),
      );
    }
    const res = await connected.request("health");
    expect(res.ok).toBe(true);
    const fresh = await box.connect();
    expect((await fresh.request("health")).ok).toBe(true);
  }, 30_000);

  it("drops a client whose outgoing buffer passes the bound", async () => {
    box = await createGatewaySandbox({ options: { maxBufferedBytes: 1024 } });
    const client = await openClient(box.gw.url);
    await client.request("connect", connectParams());
    // ws's public pause(): the client stops reading, so the gateway's outgoing buffer fills.
    client.ws.pause();
    for (let i = 0; i < 2000; i++) box.gw.core.broadcast("tick", { ts: i, pad: "x".repeat(2000) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(box.gw.connectionCount()).toBe(0);
  });
});
