// Failed-auth limiting through the real gateway (limit 3 per minute): wrong guesses past the limit are
// refused AUTH_RATE_LIMITED, but the owner's correct token (or device token) always connects; rotating
// the source address over 127.0.0.0/8 is no multiplier, nor is a made-up X-Forwarded-For.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeviceIdentity, signDeviceProof } from "../src/gateway/devices/index.js";
import {
  connectParams,
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  openClient,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";
import { openClientWith } from "./helpers/raw-upgrade.js";

const LIMIT = { authRateLimit: { max: 3, windowMs: 60_000 } };

async function attempt(
  box: GatewaySandbox,
  token: string,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
) {
  const client = await openClientWith(box.gw.url, options);
  const res = await client.request("connect", connectParams({ auth: { token } }));
  client.close();
  return res;
}

const detailOf = (res: Frame) =>
  (res.error as { details?: { code?: string } } | undefined)?.details?.code;

describe("the owner is never locked out", () => {
  let box: GatewaySandbox;
  beforeAll(async () => {
    box = await createGatewaySandbox({ options: LIMIT });
  });
  afterAll(async () => box?.close());

  it("connects with the right token after 20 wrong ones, which stay limited", async () => {
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < 20; i++) codes.push(detailOf(await attempt(box, `wrong-${i}`)));
    expect(codes.slice(0, 3)).toEqual(Array(3).fill("AUTH_TOKEN_MISMATCH"));
    expect(new Set(codes.slice(3))).toEqual(new Set(["AUTH_RATE_LIMITED"]));
    const limited = await attempt(box, "wrong-again");
    expect(limited.error).toMatchObject({
      code: "UNAVAILABLE",
      retryable: true,
      retryAfterMs: expect.any(Number),
      details: { code: "AUTH_RATE_LIMITED" },
    });
    expect((await attempt(box, TEST_TOKEN)).ok).toBe(true);
    // A success does not reset the bucket for the next guesser.
    expect(detailOf(await attempt(box, "wrong-after"))).toBe("AUTH_RATE_LIMITED");
    expect((await attempt(box, TEST_TOKEN)).ok).toBe(true);
  });

  it("lets a paired device in with its token while its address is limited", async () => {
    const identity = createDeviceIdentity();
    const client = { id: "test", version: "1.0.0", platform: "linux", mode: "test" };
    const connectDevice = async (auth: Record<string, string>) => {
      const ws = await openClient(box.gw.url);
      const { nonce, ts } = ws.frames[0]!.payload as { nonce: string; ts: number };
      const scopes = ["operator.read"];
      const device = signDeviceProof({
        identity,
        client,
        role: "operator",
        scopes,
        token: auth.token ?? auth.deviceToken ?? "",
        nonce,
        signedAt: ts,
      });
      const res = await ws.request("connect", connectParams({ client, scopes, auth, device }));
      ws.close();
      return res;
    };
    const paired = await connectDevice({ token: TEST_TOKEN });
    const deviceToken = String(payloadOf(paired).auth.deviceToken);
    expect(detailOf(await connectDevice({ deviceToken: "guess" }))).toBe("AUTH_RATE_LIMITED");
    expect((await connectDevice({ deviceToken })).ok).toBe(true);
  });
});

describe("rotating loopback source addresses", () => {
  let box: GatewaySandbox;
  beforeAll(async () => {
    box = await createGatewaySandbox({ options: LIMIT });
  });
  afterAll(async () => box?.close());

  it("counts wrong tokens from 127.0.0.2 … 127.0.0.50 as one bucket", async () => {
    const codes: Array<string | undefined> = [];
    for (let i = 2; i <= 50; i++) {
      codes.push(detailOf(await attempt(box, `wrong-${i}`, { localAddress: `127.0.0.${i}` })));
    }
    expect(codes.filter((code) => code === "AUTH_TOKEN_MISMATCH")).toHaveLength(3);
    expect(codes.filter((code) => code === "AUTH_RATE_LIMITED")).toHaveLength(46);
    // Nor does a made-up X-Forwarded-For open a new bucket (no trusted proxy is configured).
    const spoofed = await attempt(box, "wrong-xff", {
      headers: { "X-Forwarded-For": "203.0.113.77" },
    });
    expect(detailOf(spoofed)).toBe("AUTH_RATE_LIMITED");
    expect((await attempt(box, TEST_TOKEN, { localAddress: "127.0.0.9" })).ok).toBe(true);
  });
});
