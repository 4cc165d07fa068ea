// The channel update guard with a plain converter: a malformed update (refused or throwing) is logged
// by id and skipped (advance), a non-message is acknowledged silently, a rejected receive is polled
// again up to the cap then skipped, and nothing is submitted once the account's signal aborted.
import { describe, expect, it } from "vitest";
import { createEntryLogger } from "../lib/logger.js";
import type { ChannelAccountStatus, ChannelInbound } from "./types.js";
import { createUpdateGuard, type UpdateConversion } from "./update-guard.js";

const INBOUND: ChannelInbound = {
  channel: "memory",
  accountId: "a",
  messageId: "1",
  timestamp: 0,
  sender: { id: "u" },
  peer: { kind: "direct", id: "u" },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
};

function setup(submit: (inbound: ChannelInbound) => Promise<void> = async () => {}) {
  const logs: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const reports: Array<Partial<ChannelAccountStatus>> = [];
  const submitted: ChannelInbound[] = [];
  const controller = new AbortController();
  const guard = createUpdateGuard({
    log: createEntryLogger(({ level, fields, msg }) => logs.push({ level, fields, message: msg })),
    report: (update) => reports.push(update),
    submit: async (inbound) => {
      await submit(inbound);
      submitted.push(inbound);
    },
    now: () => 42,
    signal: controller.signal,
    maxSubmitAttempts: 3,
  });
  const handle = (id: number, convert: () => UpdateConversion | Promise<UpdateConversion>) =>
    guard.handle({ id, update: {}, convert });
  return { guard, handle, logs, reports, submitted, controller };
}

describe("update guard", () => {
  it("submits a converted message and acknowledges an ignored update silently", async () => {
    const g = setup();
    expect(await g.handle(1, () => ({ kind: "inbound", inbound: INBOUND }))).toEqual({
      advance: true,
      outcome: "submitted",
    });
    expect(await g.handle(2, () => ({ kind: "ignored" }))).toEqual({
      advance: true,
      outcome: "ignored",
    });
    expect(g.submitted).toEqual([INBOUND]);
    expect(g.logs).toEqual([]);
  });

  it("skips a refused update with its id and reason, and reports it", async () => {
    const g = setup();
    const verdict = await g.handle(7, () => ({ kind: "invalid", reason: "update.x: missing" }));
    expect(verdict).toEqual({ advance: true, outcome: "skipped", reason: "update.x: missing" });
    expect(g.logs).toEqual([
      {
        level: "warn",
        fields: { updateId: 7, reason: "update.x: missing" },
        message: "channel update skipped: malformed",
      },
    ]);
    expect(g.reports).toEqual([
      { lastError: "update 7 skipped: update.x: missing", lastErrorAt: 42 },
    ]);
    expect(g.submitted).toEqual([]);
  });

  it("contains a converter that throws (sync or async) and skips the update", async () => {
    const g = setup();
    const sync = await g.handle(8, () => {
      throw new TypeError("Cannot read properties of undefined (reading 'type')");
    });
    const async_ = await g.handle(9, async () => {
      throw new Error("download blew up");
    });
    expect([sync, async_].map((v) => v.advance)).toEqual([true, true]);
    expect(sync.reason).toBe(
      "conversion failed: TypeError: Cannot read properties of undefined (reading 'type')",
    );
    expect(g.logs.map((l) => [l.level, l.fields.updateId, typeof l.fields.stack])).toEqual([
      ["error", 8, "string"],
      ["error", 9, "string"],
    ]);
  });

  it("asks for a rejected receive to be polled again, then skips it at the cap", async () => {
    const g = setup(async () => {
      throw new Error("queue full");
    });
    const convert = () => ({ kind: "inbound", inbound: INBOUND }) as const;
    const verdicts = [
      await g.handle(3, convert),
      await g.handle(3, convert),
      await g.handle(3, convert),
    ];
    expect(verdicts.map((v) => [v.advance, v.outcome])).toEqual([
      [false, "retry"],
      [false, "retry"],
      [true, "skipped"],
    ]);
    expect(g.logs.at(-1)).toMatchObject({ level: "error", fields: { updateId: 3, tries: 3 } });
    expect(g.reports.at(-1)).toEqual({ lastError: "receive: queue full", lastErrorAt: 42 });
  });

  it("submits nothing once the account's signal aborted (the update stays for the restart)", async () => {
    const g = setup();
    const verdict = await g.handle(4, () => {
      g.controller.abort();
      return { kind: "inbound", inbound: INBOUND };
    });
    expect(verdict).toEqual({ advance: false, outcome: "aborted" });
    expect(await g.handle(5, () => ({ kind: "ignored" }))).toEqual({
      advance: false,
      outcome: "aborted",
    });
    expect(g.submitted).toEqual([]);
  });
});
