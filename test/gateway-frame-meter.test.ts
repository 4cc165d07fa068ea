// The gateway meters client frames on the upgraded socket: a frame refused before `connect` costs
// about the pre-connect limit, however much the client goes on sending; bad UTF-8 closes with a reason.
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  openClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
beforeAll(async () => {
  box = await createGatewaySandbox();
});
afterAll(async () => {
  await box.close();
});

/** A raw TCP socket that completed the WebSocket upgrade (101) with the gateway. */
async function rawUpgrade(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(
    `GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      if (head.startsWith("HTTP/1.1 101")) resolve();
      else reject(new Error(`upgrade refused: ${head.split("\r\n")[0]}`));
    };
    socket.on("data", onData);
  });
  return socket;
}

describe("frame metering", () => {
  it("cuts off a client that streams a 10 MiB frame before connect", async () => {
    const socket = await rawUpgrade(box.gw.url);
    socket.on("error", () => {});
    let closed = false;
    socket.once("close", () => {
      closed = true;
    });
    const total = 10 * 1024 * 1024;
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeUInt32BE(total, 6);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    const write = (bytes: Buffer) =>
      new Promise<boolean>((resolve) => {
        if (closed || socket.destroyed) return resolve(false);
        socket.write(bytes, (err) => resolve(!err));
      });
    await write(header);
    while (written < total && (await write(chunk))) written += chunk.length;
    expect(written).toBeLessThan(total);
    if (!closed) await new Promise((resolve) => socket.once("close", resolve));
    expect(closed).toBe(true);
  });

  it("closes 1007 with a reason on a text frame that is not UTF-8 before connect", async () => {
    const client = await openClient(box.gw.url);
    client.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    const closed = await client.closed;
    expect(closed.code).toBe(1007);
    expect(closed.reason).toBe("invalid UTF-8 in a text frame");
  });
});
