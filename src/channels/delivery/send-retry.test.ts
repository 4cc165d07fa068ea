import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutboundMessage, SendResult } from "../types.js";
import { deliverMessages } from "./deliver.js";
import { readDeliveryFailures } from "./failure-log.js";
import { sendWithRetry } from "./send-retry.js";

const message: OutboundMessage = {
  target: { accountId: "a", peer: { kind: "direct", id: "1" } },
  text: "hi",
};
const scripted = (results: SendResult[]) => {
  const calls: OutboundMessage[] = [];
  return {
    calls,
    send: async (m: OutboundMessage) => {
      calls.push(m);
      return results.shift() ?? { ok: true as const, receipt: { messageId: "ok" } };
    },
  };
};
const retryable = (retryAfterMs?: number): SendResult => ({
  ok: false,
  failure: { message: "busy", retryable: true, ...(retryAfterMs ? { retryAfterMs } : {}) },
});

describe("sendWithRetry", () => {
  it("retries retryable failures with backoff, honouring retryAfterMs", async () => {
    const sleeps: number[] = [];
    const runtime = scripted([retryable(), retryable(5000)]);
    const outcome = await sendWithRetry({
      runtime,
      message,
      sleep: async (ms) => void sleeps.push(ms),
      policy: { maxAttempts: 3, baseDelayMs: 100 },
    });
    expect(outcome).toMatchObject({ attempts: 3, result: { ok: true } });
    expect(sleeps).toEqual([100, 5000]);
  });

  it("never retries a non-retryable failure or a throwing adapter, and stops when exhausted", async () => {
    const rejected = scripted([{ ok: false, failure: { message: "bad", retryable: false } }]);
    expect(
      (await sendWithRetry({ runtime: rejected, message, sleep: async () => {} })).attempts,
    ).toBe(1);
    const throwing = {
      send: async (): Promise<SendResult> => {
        throw new Error("boom");
      },
    };
    const thrown = await sendWithRetry({ runtime: throwing, message, sleep: async () => {} });
    expect(thrown).toMatchObject({
      attempts: 1,
      result: { ok: false, failure: { retryable: false } },
    });
    const busy = scripted([retryable(), retryable(), retryable()]);
    expect(
      (
        await sendWithRetry({
          runtime: busy,
          message,
          sleep: async () => {},
          policy: { maxAttempts: 2 },
        })
      ).attempts,
    ).toBe(2);
    expect(busy.calls).toHaveLength(2);
  });
});

describe("deliverMessages", () => {
  it("records a failure that stays (log line + event) and still sends the rest", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "pincer-deliver-"));
    const events: Array<[string, unknown]> = [];
    const runtime = scripted([
      { ok: false, failure: { message: "gone", retryable: false, code: "403" } },
    ]);
    const report = await deliverMessages({
      deps: { stateDir, now: () => 1, emit: (e, p) => void events.push([e, p]) },
      channel: "telegram",
      runtime,
      messages: [message, { ...message, text: "second" }],
      sessionKey: "agent:main:main",
      runId: "r1",
    });
    expect(report.sent).toHaveLength(1);
    expect(report.failed).toHaveLength(1);
    expect(events).toEqual([["delivery.failed", report.failed[0]]]);
    expect(readDeliveryFailures(stateDir)).toEqual([
      expect.objectContaining({
        channel: "telegram",
        accountId: "a",
        text: "hi",
        code: "403",
        runId: "r1",
        attempts: 1,
      }),
    ]);
  });
});
