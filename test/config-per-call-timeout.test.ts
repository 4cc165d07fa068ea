// A per-call timeout of 0 means "no timeout" as the config's `timeoutSeconds: 0` does (OpenClaw's
// resolveAgentTimeoutMs): the `agent` RPC's `timeout: 0` and chat.send's `timeoutMs: 0` lift a
// configured timeout for that call, instead of being dropped and leaving the configured one.
import { afterEach, describe, expect, it } from "vitest";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** A reply slower than the configured 1 s timeout: four pieces 600 ms apart. */
const SLOW_REPLY = { chunks: 4, delayMs: 600 } as const;

/** Agents whose configured timeout (1 s) a slow reply exceeds. */
const ONE_SECOND = () => ({
  agents: { defaults: { timeoutSeconds: 1 }, list: [{ id: "main" }, { id: "Quick" }] },
});

describe("a per-call timeout of 0 means no timeout", () => {
  it("the agent RPC's timeout: 0 lets a slow run finish despite timeoutSeconds: 1", async () => {
    box = await createGatewaySandbox({ config: ONE_SECOND });
    const client = await box.connect();
    for (const [message, sessionKey] of [
      ["zero-main", "main"],
      ["zero-quick", "agent:quick:main"],
    ] as const) {
      box.fake.text(`finished ${message}`, SLOW_REPLY);
      const ack = await client.request("agent", {
        message,
        sessionKey,
        idempotencyKey: message,
        timeout: 0,
      });
      expect(ack.ok).toBe(true);
      const final = await client.waitFor(
        (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
        30_000,
      );
      expect(payloadOf(final).status).toBe("ok");
      expect(payloadOf(final).result.payloads[0].text).toBe(`finished ${message}`);
    }
  }, 60_000);

  it("chat.send's timeoutMs: 0 lets a slow run finish despite timeoutSeconds: 1", async () => {
    box = await createGatewaySandbox({ config: ONE_SECOND });
    box.fake.text("finished chat", SLOW_REPLY);
    const client = await box.connect();
    await client.request("chat.send", {
      sessionKey: "main",
      message: "chat-zero",
      idempotencyKey: "chat-zero",
      timeoutMs: 0,
    });
    const end = await client.waitFor(
      (f) =>
        f.event === "chat" &&
        payloadOf(f).runId === "chat-zero" &&
        ["final", "error", "aborted"].includes(payloadOf(f).state),
      30_000,
    );
    expect(payloadOf(end).state).toBe("final");
  }, 40_000);

  it("without a per-call timeout the configured one still applies", async () => {
    box = await createGatewaySandbox({ config: ONE_SECOND });
    box.fake.hang({ afterHeaders: true });
    const client = await box.connect();
    const ack = await client.request("agent", {
      message: "configured",
      sessionKey: "main",
      idempotencyKey: "configured",
    });
    const final = await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
      30_000,
    );
    expect(payloadOf(final).status).toBe("timeout");
  }, 40_000);
});
