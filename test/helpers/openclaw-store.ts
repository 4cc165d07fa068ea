// A store as OpenClaw writes it (legacy layout, pi v3 transcripts, absolute `sessionFile` paths), for the
// compatibility and moved-state tests.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The main session's id (transcript `<SID>.jsonl`). */
export const SID = "3f0c2a9e-5b1d-4c7e-9a2f-6d8e1b4c7a10";
/** The topic session's id (transcript `<GROUP_SID>-topic-42.jsonl`, as OpenClaw names topics). */
export const GROUP_SID = "9b7e4d21-0c3a-4f5e-8d6b-2a1c9e8f7b34";

/** Inputs for {@link writeOpenClawStore}. */
export interface OpenClawStoreParams {
  /** Where the files are written. */
  stateDir: string;
  /** The state dir OpenClaw ran with, recorded in absolute `sessionFile` paths (default `stateDir`). */
  recordedStateDir?: string;
}

/**
 * Writes agent main's sessions.json and transcripts as OpenClaw leaves them: absolute `sessionFile`
 * paths under the state dir it ran with, a topic transcript named after its thread.
 */
export function writeOpenClawStore(params: OpenClawStoreParams) {
  const sessionsDir = join(params.stateDir, "agents", "main", "sessions");
  const recordedDir = join(
    params.recordedStateDir ?? params.stateDir,
    "agents",
    "main",
    "sessions",
  );
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
      sessionFile: join(recordedDir, `${SID}.jsonl`),
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
      sessionFile: join(recordedDir, `${GROUP_SID}-topic-42.jsonl`),
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
  const groupFile = join(sessionsDir, `${GROUP_SID}-topic-42.jsonl`);
  const groupLines = [
    {
      type: "session",
      version: 3,
      id: GROUP_SID,
      timestamp: "2026-01-01T08:00:00.000Z",
      cwd: "/w",
    },
    {
      type: "message",
      id: "0a0b0c0d",
      parentId: null,
      timestamp: "2026-01-01T08:00:01.000Z",
      message: { role: "user", content: "Deploy status?", timestamp: 1767254401000 },
    },
  ];
  writeFileSync(groupFile, groupLines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return { sessionsDir, storePath: join(sessionsDir, "sessions.json"), file, groupFile, store };
}
