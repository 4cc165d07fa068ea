import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { openTranscript, type TranscriptEntry } from "../../sessions/index.js";
import { appendFailure, locateRun, planRecovery } from "./turn-recovery.js";

/** Entries chained in order (each the child of the previous). */
function chain(...items: Array<Record<string, unknown>>): TranscriptEntry[] {
  return items.map((item, i) => ({
    type: "message",
    id: `e${i}`,
    parentId: i === 0 ? null : `e${i - 1}`,
    timestamp: "",
    ...item,
  }));
}

const prompt = (runId: string, text = "hi") => ({
  message: { role: "user", content: text },
  runId,
});
const reply = (text: string, stopReason = "stop") => ({
  message: { role: "assistant", content: [{ type: "text", text }], stopReason },
});
const toolUse = (...ids: string[]) => ({
  message: {
    role: "assistant",
    content: ids.map((id) => ({ type: "toolCall", id, name: "exec", arguments: {} })),
    stopReason: "toolUse",
  },
});
const toolResult = (id: string) => ({
  message: { role: "toolResult", toolCallId: id, toolName: "exec", content: [], isError: false },
});

describe("locateRun", () => {
  it("absent when no prompt carries the run id", () => {
    expect(locateRun(chain(prompt("other"), reply("x")), "run-1")).toEqual({ state: "absent" });
  });

  it("finished when the run's last message is a final reply", () => {
    const found = locateRun(
      chain(prompt("run-1"), toolUse("a"), toolResult("a"), reply("ok")),
      "run-1",
    );
    expect(found).toMatchObject({ state: "finished", reply: { content: [{ text: "ok" }] } });
  });

  it("finished even when a later turn ran on top of it", () => {
    const found = locateRun(
      chain(prompt("run-1"), reply("ok"), prompt("run-2"), reply("b")),
      "run-1",
    );
    expect(found.state).toBe("finished");
  });

  it("resumes from the prompt when cut before a reply or in the middle of a tool batch", () => {
    expect(locateRun(chain(prompt("run-1")), "run-1")).toEqual({
      state: "partial",
      resumeFrom: "e0",
    });
    const midBatch = chain(prompt("run-1"), toolUse("a", "b"), toolResult("a"));
    expect(locateRun(midBatch, "run-1")).toEqual({ state: "partial", resumeFrom: "e0" });
    const failed = chain(prompt("run-1"), reply("", "error"));
    expect(locateRun(failed, "run-1")).toEqual({ state: "partial", resumeFrom: "e0" });
  });

  it("resumes after the last complete tool batch", () => {
    const entries = chain(
      prompt("run-1"),
      toolUse("a"),
      toolResult("a"),
      toolUse("b", "c"),
      toolResult("b"),
    );
    expect(locateRun(entries, "run-1")).toEqual({ state: "partial", resumeFrom: "e2" });
  });

  it("stale when an unfinished run has a later turn on top, or is off the branch", () => {
    const later = chain(prompt("run-1"), prompt("run-2"), reply("b"));
    expect(locateRun(later, "run-1").state).toBe("stale");
    const entries = chain(prompt("run-1"), reply("a"));
    const branched = [...entries, { ...entries[1]!, id: "side", parentId: null }];
    expect(locateRun([entries[0]!, branched[2]!], "run-1").state).toBe("stale");
  });

  it("failed when the run's error reply is already recorded, wherever it landed", () => {
    const failure = { ...reply("", "error"), runId: "run-1" };
    (failure.message as Record<string, unknown>).errorMessage = "turn not resumed: stale";
    const entries = chain(prompt("run-1"), prompt("run-2"), reply("b"), failure);
    expect(locateRun(entries, "run-1")).toEqual({
      state: "failed",
      error: "turn not resumed: stale",
    });
    // An aborted end marked with the run (a shutdown cut it) is no failure: it resumes.
    const aborted = { ...reply("", "aborted"), runId: "run-1" };
    expect(locateRun(chain(prompt("run-1"), aborted), "run-1").state).toBe("partial");
  });
});

describe("planRecovery", () => {
  function transcriptWith(items: Array<Record<string, unknown>>) {
    const dir = makeTempDir("pincer-recovery-");
    let n = 0;
    const transcript = openTranscript({
      file: join(dir, "s.jsonl"),
      sessionId: "s",
      cwd: dir,
      clock: { now: () => 0 },
      ids: { sessionId: () => "s", entryId: () => `id${++n}` },
    });
    for (const item of items) transcript.append({ type: "message", ...item });
    return transcript;
  }

  it("moves the leaf back to the resume point, so the prompt is not appended again", () => {
    const transcript = transcriptWith([prompt("run-1"), toolUse("a")]);
    expect(planRecovery({ transcript, runId: "run-1", recovery: { mode: "resume" } })).toEqual({
      kind: "run",
      prompt: false,
    });
    expect(transcript.leafId).toBe("id1");
  });

  it("runs with the prompt when absent, answers from the transcript when finished", () => {
    const fresh = transcriptWith([prompt("older"), reply("x")]);
    expect(
      planRecovery({ transcript: fresh, runId: "run-1", recovery: { mode: "resume" } }),
    ).toEqual({
      kind: "run",
      prompt: true,
    });
    const done = transcriptWith([prompt("run-1"), reply("landed")]);
    const plan = planRecovery({
      transcript: done,
      runId: "run-1",
      recovery: { mode: "fail", reason: "x" },
    });
    expect(plan).toMatchObject({ kind: "done" });
  });

  it("a failure already recorded is reported again without a second error reply", () => {
    const transcript = transcriptWith([prompt("r"), prompt("later"), reply("b")]);
    const first = planRecovery({ transcript, runId: "r", recovery: { mode: "resume" } });
    expect(first).toMatchObject({ kind: "fail", record: "reply" });
    const error = (first as { error: string }).error;
    appendFailure(transcript, { error, runId: "r", now: 1 });
    // A crash before the outcome was journaled: the next start plans the same turn again.
    for (const recovery of [{ mode: "resume" as const }, { mode: "fail" as const, reason: "x" }]) {
      expect(planRecovery({ transcript, runId: "r", recovery })).toEqual({
        kind: "fail",
        error,
        record: "none",
      });
    }
  });

  it("fail mode records the prompt only when it is absent", () => {
    const absent = transcriptWith([]);
    const reason = "cut too often";
    expect(
      planRecovery({ transcript: absent, runId: "r", recovery: { mode: "fail", reason } }),
    ).toEqual({
      kind: "fail",
      error: reason,
      record: "prompt-and-reply",
    });
    const partial = transcriptWith([prompt("r")]);
    expect(
      planRecovery({ transcript: partial, runId: "r", recovery: { mode: "fail", reason } }),
    ).toMatchObject({
      record: "reply",
    });
  });
});
