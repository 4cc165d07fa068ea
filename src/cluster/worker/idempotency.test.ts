import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../sessions/index.js";
import { MAX_DELIVERIES, planDelivery } from "./idempotency.js";

function chain(...items: Array<Record<string, unknown>>): TranscriptEntry[] {
  return items.map((item, i) => ({
    type: "message",
    id: `e${i}`,
    parentId: i === 0 ? null : `e${i - 1}`,
    timestamp: "",
    ...item,
  }));
}
const prompt = (runId: string) => ({ message: { role: "user", content: "hi" }, runId });
const reply = (text: string, stopReason = "stop") => ({
  message: { role: "assistant", content: [{ type: "text", text }], stopReason },
});
const toolUse = (id: string) => ({
  message: {
    role: "assistant",
    content: [{ type: "toolCall", id, name: "exec", arguments: {} }],
    stopReason: "toolUse",
  },
});

describe("planDelivery (a worker's idempotency check)", () => {
  it("runs a turn fresh when its session or its prompt is not there (reset policies apply)", () => {
    expect(planDelivery({ runId: "r1", entries: undefined, deliveries: 1 })).toEqual({
      recovery: undefined,
      found: "absent",
    });
    const other = chain(prompt("r0"), reply("a"));
    expect(planDelivery({ runId: "r1", entries: other, deliveries: 2 }).recovery).toBeUndefined();
  });

  it("resumes a turn whose final answer already landed (republished, no second model call)", () => {
    const entries = chain(prompt("r1"), reply("done"));
    expect(planDelivery({ runId: "r1", entries, deliveries: 2 })).toEqual({
      recovery: { mode: "resume" },
      found: "finished",
    });
  });

  it("resumes a turn cut mid-way (continues from its transcript, prompt not appended again)", () => {
    const entries = chain(prompt("r1"), toolUse("t1"));
    expect(planDelivery({ runId: "r1", entries, deliveries: 2 })).toEqual({
      recovery: { mode: "resume" },
      found: "partial",
    });
  });

  it("keeps the gateway's own recovery of a journaled turn", () => {
    const given = { mode: "fail" as const, reason: "crash loop" };
    expect(planDelivery({ runId: "r1", entries: undefined, deliveries: 1, given })).toEqual({
      recovery: given,
      found: "given",
    });
  });

  it("records a turn delivered too often as failed instead of blocking its partition", () => {
    const plan = planDelivery({ runId: "r1", entries: undefined, deliveries: MAX_DELIVERIES + 1 });
    expect(plan.recovery).toMatchObject({ mode: "fail" });
  });
});
