import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { createVirtualClock } from "../../test/helpers/virtual-clock.js";
import { silentLogger } from "../lib/logger.js";
import type { RunEvent } from "../runtime/run/index.js";
import type { DeliveryReport } from "./delivery/deliver.js";
import { type DeliveryQueue, openDeliveryQueue } from "./delivery/delivery-queue.js";
import { DEFAULT_RETRY_POLICY } from "./delivery/send-retry.js";
import { createToolProgress, type ToolProgressParams } from "./tool-progress.js";
import type { OutboundMessage, SendResult } from "./types.js";

const dirs: string[] = [];
const queues: DeliveryQueue[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const INBOUND_KEY = "telegram\u0000default\u0000direct:7\u000042";

/** A real queue on a temp state dir whose account records every send. */
function openQueue(stateDir: string) {
  const sent: OutboundMessage[] = [];
  let next = 0;
  const queue = openDeliveryQueue({
    stateDir,
    clock: createVirtualClock().clock,
    log: silentLogger,
    emit: () => {},
    runtimeFor: () => ({
      send: (message): Promise<SendResult> => {
        sent.push(message);
        return Promise.resolve({ ok: true, receipt: { messageId: `m${++next}` } });
      },
    }),
    policyFor: () => DEFAULT_RETRY_POLICY,
  });
  queues.push(queue);
  return { queue, sent };
}

function progress(queue: DeliveryQueue, level: ToolProgressParams["level"], pending: unknown[]) {
  return createToolProgress({
    level,
    deliveries: queue,
    channel: "telegram",
    accountId: "default",
    target: { accountId: "default", peer: { kind: "direct", id: "7" } },
    agentId: "main",
    sessionKey: "agent:main:main",
    runId: "run-1",
    maxTextLength: 4000,
    log: silentLogger,
    track: (delivering: Promise<DeliveryReport | undefined>) => pending.push(delivering),
  });
}

const start = (toolCallId: string): RunEvent => ({
  type: "tool_start",
  runId: "run-1",
  toolCallId,
  toolName: "exec",
  args: { command: "ls -la" },
});
const end = (toolCallId: string): RunEvent => ({
  type: "tool_end",
  runId: "run-1",
  toolCallId,
  toolName: "exec",
  isError: true,
  result: { content: [{ type: "text", text: "exit 2" }] },
});

describe("verbose tool messages", () => {
  it("are sent once per tool call even by a replayed run, and never count as answering the message", async () => {
    const stateDir = makeTempDir("pincer-progress-");
    dirs.push(stateDir);
    const first = openQueue(stateDir);
    const pending: unknown[] = [];
    const onEvent = progress(first.queue, "full", pending);
    onEvent(start("call_1"));
    onEvent(end("call_1"));
    await Promise.all(pending);
    expect(first.sent.map((m) => m.text)).toEqual([
      "🛠️ exec: `ls -la`",
      "⚠️ exec failed:\n```\nexit 2\n```",
    ]);
    expect(first.sent[0]?.target.replyToId).toBeUndefined();
    // The message they came from is still unanswered: a replay runs it.
    expect(first.queue.covered(INBOUND_KEY)).toEqual([]);
    await first.queue.stop();

    // After a restart the replayed run meets the same tool call again: nothing is sent twice.
    const second = openQueue(stateDir);
    const replay = progress(second.queue, "full", pending);
    replay(start("call_1"));
    replay(end("call_1"));
    replay(start("call_2"));
    await Promise.all(pending);
    expect(second.sent.map((m) => m.text)).toEqual(["🛠️ exec: `ls -la`"]);
  });

  it("on sends calls only; off sends nothing", async () => {
    const stateDir = makeTempDir("pincer-progress-");
    dirs.push(stateDir);
    const { queue, sent } = openQueue(stateDir);
    const pending: unknown[] = [];
    const on = progress(queue, "on", pending);
    on(start("a"));
    on(end("a"));
    const off = progress(queue, "off", pending);
    off(start("b"));
    off(end("b"));
    await Promise.all(pending);
    expect(sent.map((m) => m.text)).toEqual(["🛠️ exec: `ls -la`"]);
  });
});
