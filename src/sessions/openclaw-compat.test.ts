// A store written by OpenClaw (legacy file layout, pi v3 transcripts) is read as is, and rewriting it keeps
// every field we do not know byte for byte.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";
import { readTranscript } from "./transcript.js";
import { currentBranch, describeEntry, isMessageEntry } from "./transcript-format.js";

const SID = "3f0c2a9e-5b1d-4c7e-9a2f-6d8e1b4c7a10";
const GROUP_SID = "9b7e4d21-0c3a-4f5e-8d6b-2a1c9e8f7b34";

function writeFixture(stateDir: string) {
  const sessionsDir = join(stateDir, "agents", "main", "sessions");
  mkdirSync(sessionsDir, { recursive: true });
  const store = {
    "agent:main:main": {
      sessionId: SID,
      updatedAt: 1767261600000,
      systemSent: true,
      abortedLastRun: false,
      chatType: "direct",
      deliveryContext: { channel: "telegram", to: "telegram:123456789", accountId: "default" },
      lastChannel: "telegram",
      lastTo: "telegram:123456789",
      lastAccountId: "default",
      origin: {
        label: "Ada (@ada)",
        provider: "telegram",
        surface: "telegram",
        chatType: "direct",
        from: "telegram:123456789",
        to: "telegram:123456789",
        accountId: "default",
      },
      sessionFile: join(sessionsDir, `${SID}.jsonl`),
      skillsSnapshot: {
        prompt: "<available_skills>…</available_skills>",
        skills: [{ name: "weather" }],
      },
      inputTokens: 10234,
      outputTokens: 812,
      totalTokens: 14200,
      totalTokensFresh: true,
      modelProvider: "anthropic",
      model: "claude-opus-4-5",
      contextTokens: 200000,
      compactionCount: 1,
      thinkingLevel: "low",
      someFutureField: { nested: [1, 2, { deep: true }] },
    },
    "agent:main:telegram:group:-1001234567890:topic:42": {
      sessionId: GROUP_SID,
      updatedAt: 1767175200000,
      chatType: "group",
      lastChannel: "telegram",
      lastTo: "telegram:-1001234567890:topic:42",
      lastThreadId: 42,
      groupActivation: "mention",
      displayName: "telegram:g-ops-topic-42",
      label: "Ops",
    },
  };
  writeFileSync(join(sessionsDir, "sessions.json"), JSON.stringify(store, null, 2), {
    mode: 0o600,
  });
  const lines = [
    {
      type: "session",
      version: 3,
      id: SID,
      timestamp: "2026-01-01T09:00:00.000Z",
      cwd: "/home/ada/.openclaw/workspace",
    },
    {
      type: "model_change",
      id: "a1b2c3d4",
      parentId: null,
      timestamp: "2026-01-01T09:00:00.010Z",
      provider: "anthropic",
      modelId: "claude-opus-4-5",
    },
    {
      type: "thinking_level_change",
      id: "b2c3d4e5",
      parentId: "a1b2c3d4",
      timestamp: "2026-01-01T09:00:00.011Z",
      thinkingLevel: "low",
    },
    {
      type: "custom",
      id: "c3d4e5f6",
      parentId: "b2c3d4e5",
      timestamp: "2026-01-01T09:00:00.012Z",
      customType: "model-snapshot",
      data: { provider: "anthropic", modelApi: "anthropic-messages", modelId: "claude-opus-4-5" },
    },
    {
      type: "message",
      id: "d4e5f6a7",
      parentId: "c3d4e5f6",
      timestamp: "2026-01-01T09:00:01.000Z",
      message: {
        role: "user",
        content: [{ type: "text", text: "What's on today?" }],
        timestamp: 1767258001000,
      },
    },
    {
      type: "message",
      id: "e5f6a7b8",
      parentId: "d4e5f6a7",
      timestamp: "2026-01-01T09:00:04.000Z",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "…" },
          { type: "text", text: "Two meetings." },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-opus-4-5",
        usage: {
          input: 5000,
          output: 40,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 5040,
          cost: { input: 0.075, output: 0.003, cacheRead: 0, cacheWrite: 0, total: 0.078 },
        },
        stopReason: "stop",
        timestamp: 1767258004000,
      },
    },
    {
      type: "compaction",
      id: "f6a7b8c9",
      parentId: "e5f6a7b8",
      timestamp: "2026-01-01T10:00:00.000Z",
      summary: "Ada asked about her day.",
      firstKeptEntryId: "e5f6a7b8",
      tokensBefore: 190000,
      details: { readFiles: [], modifiedFiles: [] },
    },
    {
      type: "message",
      id: "a7b8c9d0",
      parentId: "f6a7b8c9",
      timestamp: "2026-01-01T10:00:05.000Z",
      message: { role: "user", content: "Thanks!", timestamp: 1767261605000 },
    },
  ];
  const file = join(sessionsDir, `${SID}.jsonl`);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return { sessionsDir, storePath: join(sessionsDir, "sessions.json"), file, store };
}

describe("OpenClaw-written store", () => {
  it("reads sessions.json and the v3 transcript as they are", () => {
    const stateDir = makeTempDir("pincer-compat-");
    const fx = writeFixture(stateDir);
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
    const fx = writeFixture(stateDir);
    const original = readFileSync(fx.storePath, "utf8");
    const lock = acquireStateDirLock({ stateDir });
    const store = openSessionStore({ storePath: fx.storePath, lock });
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

  it("appends to an OpenClaw transcript in the same format", () => {
    const stateDir = makeTempDir("pincer-compat-");
    const fx = writeFixture(stateDir);
    const lock = acquireStateDirLock({ stateDir });
    const store = openSessionStore({ storePath: fx.storePath, lock });
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
