import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../../lib/logger.js";
import type { ChannelInbound } from "../types.js";
import { inboundJournalPath, openInboundJournal } from "./inbound-journal.js";
import { createInboundDedupe, inboundDedupeKey } from "./redelivery-filter.js";

const message = (messageId: string, text = "hi"): ChannelInbound => ({
  channel: "telegram",
  accountId: "default",
  messageId,
  timestamp: 0,
  sender: { id: "u" },
  peer: { kind: "direct", id: "u" },
  text,
  mentions: [],
  mentionedSelf: false,
  media: [],
});

function logger() {
  const warnings: string[] = [];
  const log = createEntryLogger((entry) => {
    if (entry.level === "warn" || entry.level === "error") warnings.push(entry.msg);
  });
  return { log, warnings };
}

const tempState = () => makeTempDir("pincer-journal-");

function accept(journal: ReturnType<typeof openInboundJournal>, inbound: ChannelInbound) {
  const key = inboundDedupeKey(inbound);
  journal.accept(key, inbound);
  return key;
}

describe("inbound journal", () => {
  it("keeps accepted-but-unsettled messages (without raw) across a reopen", () => {
    const stateDir = tempState();
    const { log } = logger();
    const journal = openInboundJournal({ stateDir, log });
    const a = accept(journal, { ...message("1"), raw: { huge: "payload" } });
    const b = accept(journal, message("2"));
    journal.settle(b, "replied");
    journal.settle(b, "dropped");
    journal.close();
    const lines = readFileSync(inboundJournalPath(stateDir), "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(["accepted", "accepted", "settled"]);

    const reopened = openInboundJournal({ stateDir, log });
    expect(reopened.pending()).toEqual([{ key: a, inbound: message("1") }]);
    expect(reopened.keys()).toEqual([b, a]);
    // The dedupe seeded from it ignores a redelivery of either message.
    const dedupe = createInboundDedupe({ seed: reopened.keys() });
    expect(dedupe.firstSeen(message("1"))).toBe(false);
    expect(dedupe.firstSeen(message("2"))).toBe(false);
    expect(dedupe.firstSeen(message("3"))).toBe(true);
    reopened.close();
  });

  it("tolerates a torn last line and repairs the file so later appends stay whole", () => {
    const stateDir = tempState();
    const { log, warnings } = logger();
    const journal = openInboundJournal({ stateDir, log });
    const a = accept(journal, message("1"));
    journal.close();
    const path = inboundJournalPath(stateDir);
    appendFileSync(path, '{"type":"accepted","key":"cut-off","inbound":{"chan');

    const reopened = openInboundJournal({ stateDir, log });
    expect(warnings).toContain("inbound journal: torn lines skipped");
    expect(reopened.pending().map((entry) => entry.key)).toEqual([a]);
    const b = accept(reopened, message("2"));
    reopened.close();
    const third = openInboundJournal({ stateDir, log });
    expect(third.pending().map((entry) => entry.key)).toEqual([a, b]);
    third.close();
    expect(warnings).toHaveLength(1);
  });

  it("compacts atomically past its bound, keeping unsettled entries and recent settled keys", () => {
    const stateDir = tempState();
    const { log } = logger();
    const journal = openInboundJournal({ stateDir, log, maxBytes: 64 * 1024, keepSettled: 5000 });
    const held = accept(journal, message("held", "still waiting for its turn"));
    const keys: string[] = [];
    for (let i = 0; i < 6000; i++) {
      const key = accept(journal, message(`m${i}`));
      journal.settle(key, "replied");
      keys.push(key);
    }
    const path = inboundJournalPath(stateDir);
    // Without compaction: 12,001 lines (accepted + settled per message, one held).
    const lines = readFileSync(path, "utf8").trim().split("\n");
    expect(lines.length).toBeLessThan(12_001);
    expect(journal.pending().map((entry) => entry.key)).toEqual([held]);
    journal.close();
    expect(readdirSync(dirname(path)).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    const reopened = openInboundJournal({ stateDir, log });
    expect(reopened.pending()).toEqual([
      { key: held, inbound: message("held", "still waiting for its turn") },
    ]);
    const known = new Set(reopened.keys());
    // The oldest settled keys beyond the dedupe window are forgotten; the newest 5,000 are kept.
    expect(known.has(keys[0]!)).toBe(false);
    expect(keys.slice(-5000).every((key) => known.has(key))).toBe(true);
    reopened.close();
  });

  it("refuses to accept once closed, so the adapter does not acknowledge", () => {
    const journal = openInboundJournal({ stateDir: tempState(), log: logger().log });
    journal.close();
    expect(() => journal.accept("k", message("1"))).toThrow(/closed/);
    journal.settle("k", "replied");
  });
});
