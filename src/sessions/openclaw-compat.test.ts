// A store written by OpenClaw (legacy file layout, pi v3 transcripts) is read as is, and rewriting it keeps
// every field we do not know byte for byte.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SID, writeOpenClawStore } from "../../test/helpers/openclaw-store.js";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";
import { readTranscript } from "./transcript.js";
import { currentBranch, describeEntry, isMessageEntry } from "./transcript-format.js";

describe("OpenClaw-written store", () => {
  it("reads sessions.json and the v3 transcript as they are", () => {
    const stateDir = makeTempDir("pincer-compat-");
    const fx = writeOpenClawStore({ stateDir });
    const store = openSessionStore({ storePath: fx.storePath });
    expect(store.list().map((row) => row.key)).toEqual([
      "agent:main:main",
      "agent:main:telegram:group:-1001234567890:topic:42",
    ]);
    expect(store.get("agent:main:main")).toEqual(fx.store["agent:main:main"]);
    const read = store.readTranscript("agent:main:main")!;
    expect(read.issues).toEqual([]);
    expect(read.header).toMatchObject({ version: 3, id: SID });
    const branch = currentBranch(read.entries);
    expect(branch.map((entry) => entry.type)).toEqual([
      "model_change",
      "thinking_level_change",
      "custom",
      "message",
      "message",
      "compaction",
      "message",
    ]);
    expect(branch.filter(isMessageEntry).map((e) => describeEntry(e).text)).toEqual([
      "What's on today?",
      "Two meetings.",
      "Thanks!",
    ]);
  });

  it("rewrites the store keeping unknown fields and untouched entries byte for byte", async () => {
    const stateDir = makeTempDir("pincer-compat-");
    const fx = writeOpenClawStore({ stateDir });
    const original = readFileSync(fx.storePath, "utf8");
    const lock = acquireStateDirLock({ stateDir });
    const store = closeWhenDone(openSessionStore({ storePath: fx.storePath, lock }));
    await store.snapshot();
    expect(readFileSync(fx.storePath, "utf8")).toBe(original);
    store.annotate("agent:main:main", { inputTokens: 11000 });
    await store.close();
    const after = JSON.parse(readFileSync(fx.storePath, "utf8"));
    expect(after["agent:main:main"]).toEqual({
      ...fx.store["agent:main:main"],
      inputTokens: 11000,
    });
    expect(Object.keys(after["agent:main:main"])).toEqual(Object.keys(fx.store["agent:main:main"]));
    expect(after["agent:main:telegram:group:-1001234567890:topic:42"]).toEqual(
      fx.store["agent:main:telegram:group:-1001234567890:topic:42"],
    );
    lock.release();
  });

  it("appends to an OpenClaw transcript in the same format", async () => {
    const stateDir = makeTempDir("pincer-compat-");
    const fx = writeOpenClawStore({ stateDir });
    const lock = acquireStateDirLock({ stateDir });
    const store = closeWhenDone(openSessionStore({ storePath: fx.storePath, lock }));
    const transcript = store.openTranscript("agent:main:main", { cwd: "/ignored" });
    const entry = transcript.appendMessage({
      role: "assistant",
      content: [{ type: "text", text: "You're welcome." }],
    });
    expect(entry.parentId).toBe("a7b8c9d0");
    expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
    const read = readTranscript({ file: fx.file });
    expect(read.header?.cwd).toBe("/home/ada/.openclaw/workspace");
    expect(currentBranch(read.entries).at(-1)?.id).toBe(entry.id);
    await store.close();
    lock.release();
  });

  it("reads a 2026.9 (version 4, UUID ids) transcript", () => {
    const dir = makeTempDir("pincer-compat-");
    const file = join(dir, "v4.jsonl");
    const root = "0a1b2c3d-0000-4000-8000-000000000001";
    writeFileSync(
      file,
      [
        { type: "session", version: 4, id: "s", timestamp: "2026-09-06T00:00:00.000Z", cwd: "/w" },
        {
          type: "message",
          id: root,
          parentId: null,
          timestamp: "t",
          message: { role: "user", content: "hi" },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n") + "\n",
    );
    const read = readTranscript({ file });
    expect(read.version).toBe(4);
    expect(currentBranch(read.entries).map((e) => e.id)).toEqual([root]);
  });
});
