// Handshake: challenge first, protocol 3 and 4 and a mismatch, bad first frame, oversized pre-auth
// frame, wrong token, the failed-auth rate limit (guesses only) and the frame limit after hello.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  openClient,
  payloadOf,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
beforeAll(async () => {
  box = await createGatewaySandbox({ options: { authRateLimit: { max: 3, windowMs: 60_000 } } });
});
afterAll(async () => box?.close());

describe("gateway handshake", () => {
  it("sends connect.challenge first and speaks protocol 4 to a 3–4 client", async () => {
    const client = await openClient(box.gw.url);
    const challenge = client.frames[0];
    expect(challenge).toMatchObject({ type: "event", event: "connect.challenge" });
    expect(challenge.payload).toMatchObject({ nonce: expect.any(String), ts: expect.any(Number) });
    const res = await client.request("connect", connectParams());
    expect(res.ok).toBe(true);
    const hello = payloadOf(res);
    expect(hello.type).toBe("hello-ok");
    expect(hello.protocol).toBe(4);
    expect(hello.server.connId).toEqual(expect.any(String));
    expect(hello.features.methods).toContain("agent");
    expect(hello.features.events).toContain("tick");
    expect(hello.snapshot.sessionDefaults).toEqual({
      defaultAgentId: "main",
      mainKey: "main",
      mainSessionKey: "agent:main:main",
      scope: "per-sender",
    });
    expect(hello.auth).toMatchObject({ method: "token", role: "operator" });
    expect(hello.policy).toEqual({
      maxPayload: 26214400,
      maxBufferedBytes: 52428800,
      tickIntervalMs: 30000,
    });
    client.close();
  });

  it("speaks protocol 3 to a 3-only client (the shape the OpenClaw 2026.4.2 CLI sends)", async () => {
    const client = await openClient(box.gw.url);
    const res = await client.request(
      "connect",
      connectParams({
        minProtocol: 3,
        maxProtocol: 3,
        client: {
          id: "cli",
          version: "2026.4.2",
          platform: "linux",
          mode: "cli",
          instanceId: "5a184bfe",
        },
        caps: [],
      }),
    );
    expect(res.ok).toBe(true);
    expect((res.payload as { protocol: number }).protocol).toBe(3);
    client.close();
  });

  it("refuses a range without 3 or 4 with PROTOCOL_MISMATCH and close 1002", async () => {
    const client = await openClient(box.gw.url);
    const res = await client.request("connect", connectParams({ minProtocol: 5, maxProtocol: 6 }));
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: "protocol mismatch",
      details: { code: "PROTOCOL_MISMATCH", clientMinProtocol: 5, clientMaxProtocol: 6 },
    });
    expect((await client.closed).code).toBe(1002);
  });

  it("closes 1008 when the first request is not connect", async () => {
    const client = await openClient(box.gw.url);
    const res = await client.request("health");
    expect(res.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: "invalid handshake: first request must be connect",
    });
    expect((await client.closed).code).toBe(1008);
  });

  it("rejects invalid connect params with a located message", async () => {
    const client = await openClient(box.gw.url);
    const res = await client.request(
      "connect",
      connectParams({ client: { id: "nope", version: "1", platform: "linux", mode: "cli" } }),
    );
    expect((res.error as { message: string }).message).toBe(
      "invalid connect params: at /client/id: must be equal to one of the allowed values",
    );
    expect((await client.closed).code).toBe(1008);
  });

  it("closes 1009 on a frame over 64 KiB before connect, accepts one after", async () => {
    const early = await openClient(box.gw.url);
    early.sendRaw(
      JSON.stringify({
        type: "req",
        id: "x",
        method: "connect",
        params: { pad: "x".repeat(70_000) },
      }),
    );
    expect((await early.closed).code).toBe(1009);
    const late = await box.connect();
    const res = await late.request("chat.history", {
      sessionKey: "main",
      pad: "y".repeat(100_000),
    });
    expect(res.error).toMatchObject({ code: "INVALID_REQUEST" });
    late.close();
  });

  it("refuses a wrong token with AUTH_TOKEN_MISMATCH, then rate-limits guesses, not the owner", async () => {
    const bad = { auth: { token: "wrong" } };
    for (let i = 0; i < 3; i++) {
      const client = await openClient(box.gw.url);
      const res = await client.request("connect", connectParams(bad));
      expect(res.error).toMatchObject({
        code: "INVALID_REQUEST",
        details: { code: "AUTH_TOKEN_MISMATCH", authReason: "token_mismatch" },
      });
      expect((res.error as { message: string }).message).toMatch(
        /^unauthorized: gateway token mismatch/,
      );
      expect((await client.closed).code).toBe(1008);
    }
    const limited = await openClient(box.gw.url);
    const res = await limited.request("connect", connectParams(bad));
    expect(res.error).toMatchObject({
      code: "UNAVAILABLE",
      retryable: true,
      retryAfterMs: expect.any(Number),
      details: { code: "AUTH_RATE_LIMITED" },
    });
    // The right token is checked first: it still connects (see test/gateway-auth-limit.test.ts).
    const owner = await openClient(box.gw.url);
    expect((await owner.request("connect", connectParams())).ok).toBe(true);
    owner.close();
  });
});
