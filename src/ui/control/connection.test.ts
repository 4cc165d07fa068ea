import { describe, expect, it } from "vitest";
import { GatewayRequestError } from "../../client/types.js";
import { classifyConnectFailure, reconnectDelayMs } from "./connection.js";

function refused(code: string, details?: unknown): GatewayRequestError {
  return new GatewayRequestError({ code, message: `${code} message`, method: "connect", details });
}

describe("connect failures", () => {
  it("retries network trouble with capped backoff", () => {
    expect(classifyConnectFailure(refused("UNREACHABLE")).kind).toBe("retry");
    expect(classifyConnectFailure(refused("CLOSED")).kind).toBe("retry");
    expect(classifyConnectFailure(new Error("boom")).kind).toBe("retry");
    expect([0, 1, 5, 9].map(reconnectDelayMs)).toEqual([500, 1000, 15_000, 15_000]);
  });

  it("waits for pairing approval with the request id the gateway gave", () => {
    const pairing = refused("NOT_PAIRED", { code: "PAIRING_REQUIRED", requestId: "req-1" });
    expect(classifyConnectFailure(pairing)).toEqual({ kind: "pairing", requestId: "req-1" });
  });

  it("drops a stale device token, and stops on a refused token with its detail code", () => {
    const stale = refused("INVALID_REQUEST", { code: "DEVICE_TOKEN_INVALID" });
    expect(classifyConnectFailure(stale)).toEqual({ kind: "stale-device-token" });
    const wrong = refused("INVALID_REQUEST", { code: "AUTH_TOKEN_MISMATCH" });
    expect(classifyConnectFailure(wrong)).toEqual({
      kind: "refused",
      message: "INVALID_REQUEST message [AUTH_TOKEN_MISMATCH]",
    });
    const noDevice = refused("NOT_PAIRED", { code: "DEVICE_IDENTITY_REQUIRED" });
    expect(classifyConnectFailure(noDevice).kind).toBe("refused");
  });
});
