// Forking a session: the child's transcript is the parent's current branch under a header naming
// the parent, written whole and only once its entry is durable; the parent is untouched; a child
// that already has a transcript (or a parent with nothing to copy) is left alone; no temp file stays.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { forkSessionTranscript } from "./fork.js";
import { journalPathFor } from "./journal.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";
import { isMessageEntry, messageText } from "./transcript-format.js";

const PARENT = "agent:main:slack:channel:c1";
const CHILD = `${PARENT}:thread:1700000001.000100`;

function openStore() {
  const stateDir = makeTempDir("pincer-fork-");
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  const lock = acquireStateDirLock({ stateDir });
  closeWhenDone({ close: () => lock.release() });
  const manual = { setTimeout: () => 0, clearTimeout: () => {} };
  const store = closeWhenDone(openSessionStore({ storePath, lock, scheduler: manual }));
  return { store, storePath, lock };
}

function texts(entries: readonly unknown[]): string[] {
  return entries.flatMap((entry) =>
    isMessageEntry(entry as never) ? [messageText((entry as { message: never }).message)] : [],
  );
}

describe("forkSessionTranscript", () => {
  it("copies the parent's current branch under a header naming the parent; the parent is untouched", async () => {
    const { store } = openStore();
    store.getOrCreate(PARENT);
    const parent = store.openTranscript(PARENT, { cwd: "/work" });
    const question = parent.appendMessage({ role: "user", content: "what is the plan?" });
    parent.appendMessage({ role: "assistant", content: [{ type: "text", text: "plan A" }] });
    // A branch off the question: the current branch is question → plan B.
    parent.setLeaf(question.id);
    parent.appendMessage({ role: "assistant", content: [{ type: "text", text: "plan B" }] });
    const parentBytes = readFileSync(parent.file);
    const child = store.getOrCreate(CHILD).entry;

    const outcome = await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD });

    expect(outcome).toMatchObject({ status: "forked", entries: 2 });
    const copy = store.readTranscript(CHILD)!;
    expect(copy.header).toMatchObject({
      id: child.sessionId,
      cwd: "/work",
      parentSession: parent.file,
    });
    expect(texts(copy.entries)).toEqual(["what is the plan?", "plan B"]);
    expect(readFileSync(parent.file).equals(parentBytes)).toBe(true);
    // The child's turns go on after the copy; the parent does not see them.
    const opened = store.openTranscript(CHILD, { cwd: "/work" });
    const next = opened.appendMessage({ role: "user", content: "and in the thread?" });
    expect(next.parentId).toBe(copy.entries.at(-1)!.id);
    expect(texts(store.readTranscript(PARENT)!.entries)).toHaveLength(3);
    expect(readdirSync(dirname(parent.file)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("writes the copy only once the child's entry is durable (journaled before the file exists)", async () => {
    const { store, storePath } = openStore();
    store.getOrCreate(PARENT);
    store.openTranscript(PARENT, { cwd: "/w" }).appendMessage({ role: "user", content: "hi" });
    store.getOrCreate(CHILD);
    const outcome = await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD });
    expect(outcome.status).toBe("forked");
    expect(readFileSync(journalPathFor(storePath), "utf8")).toContain(CHILD);
  });

  it("leaves a child that already has a transcript alone", async () => {
    const { store } = openStore();
    store.getOrCreate(PARENT);
    store.openTranscript(PARENT, { cwd: "/w" }).appendMessage({ role: "user", content: "hi" });
    store.getOrCreate(CHILD);
    const own = store.openTranscript(CHILD, { cwd: "/w" });
    own.appendMessage({ role: "user", content: "mine" });
    const before = readFileSync(own.file, "utf8");
    const outcome = await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD });
    expect(outcome).toEqual({ status: "skipped", reason: "child-has-transcript" });
    expect(readFileSync(own.file, "utf8")).toBe(before);
  });

  it("skips a parent with no transcript or no entries, and an unknown child", async () => {
    const { store } = openStore();
    store.getOrCreate(CHILD);
    expect(await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD })).toEqual({
      status: "skipped",
      reason: "no-parent",
    });
    store.getOrCreate(PARENT);
    expect(await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD })).toEqual({
      status: "skipped",
      reason: "no-parent",
    });
    // A header and nothing else.
    store.openTranscript(PARENT, { cwd: "/w" });
    expect(await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD })).toEqual({
      status: "skipped",
      reason: "empty-parent",
    });
    expect(
      await forkSessionTranscript({ store, parentKey: PARENT, childKey: `${PARENT}:thread:9` }),
    ).toEqual({ status: "skipped", reason: "no-child" });
  });

  it("survives a restart: the reopened store finds the child with the copied transcript", async () => {
    const { store, storePath, lock } = openStore();
    store.getOrCreate(PARENT);
    store.openTranscript(PARENT, { cwd: "/w" }).appendMessage({ role: "user", content: "kept" });
    store.getOrCreate(CHILD);
    await forkSessionTranscript({ store, parentKey: PARENT, childKey: CHILD });
    await store.close();
    const reopened = closeWhenDone(openSessionStore({ storePath, lock }));
    expect(texts(reopened.readTranscript(CHILD)!.entries)).toEqual(["kept"]);
  });
});
