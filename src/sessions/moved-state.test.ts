// A state dir moved to another HOME keeps its history: transcripts are found inside the store dir whatever
// absolute path the index recorded, nothing is read or written elsewhere, and the recorded path is
// rewritten on the next update. A crafted `sessionFile` never reaches a file outside the store dir.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GROUP_SID, SID, writeOpenClawStore } from "../../test/helpers/openclaw-store.js";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";
import { currentBranch } from "./transcript-format.js";

const MAIN = "agent:main:main";
const TOPIC = "agent:main:telegram:group:-1001234567890:topic:42";
const tempDir = makeTempDir;

/** OpenClaw ran under `oldHome`; its `.openclaw` was copied to `newHome` (the old one still exists). */
function movedState() {
  const oldHome = tempDir("pincer-old-home-");
  const newHome = tempDir("pincer-new-home-");
  const oldState = join(oldHome, ".openclaw");
  writeOpenClawStore({ stateDir: oldState });
  const newState = join(newHome, ".openclaw");
  cpSync(oldState, newState, { recursive: true });
  const sessionsDir = join(newState, "agents", "main", "sessions");
  const oldSessionsDir = join(oldState, "agents", "main", "sessions");
  const snapshotOld = () =>
    readdirSync(oldSessionsDir).map((name) => [
      name,
      readFileSync(join(oldSessionsDir, name), "utf8"),
    ]);
  return {
    oldState,
    newState,
    sessionsDir,
    storePath: join(sessionsDir, "sessions.json"),
    snapshotOld,
  };
}

describe("a state dir moved to another HOME", () => {
  it("reads every session's history from the moved transcripts (read-only, as the CLI does)", () => {
    const m = movedState();
    const store = openSessionStore({ storePath: m.storePath });
    expect(store.get(MAIN)?.sessionFile?.startsWith(m.oldState)).toBe(true);
    const main = store.readTranscript(MAIN)!;
    expect(main.file).toBe(join(m.sessionsDir, `${SID}.jsonl`));
    expect(main.exists).toBe(true);
    expect(currentBranch(main.entries)).toHaveLength(7);
    const topic = store.readTranscript(TOPIC)!;
    expect(topic.file).toBe(join(m.sessionsDir, `${GROUP_SID}-topic-42.jsonl`));
    expect(topic.entries).toHaveLength(1);
  });

  it("appends to the moved transcript, leaves the old HOME alone and rewrites the recorded paths", async () => {
    const m = movedState();
    const before = m.snapshotOld();
    const lock = acquireStateDirLock({ stateDir: m.newState });
    const store = closeWhenDone(openSessionStore({ storePath: m.storePath, lock }));
    const transcript = store.openTranscript(MAIN, { cwd: "/new/workspace" });
    const appended = transcript.appendMessage({ role: "user", content: "Still there?" });
    expect(appended.parentId).toBe("a7b8c9d0"); // continues the old branch
    expect(store.get(MAIN)?.sessionFile).toBe(join(m.sessionsDir, `${SID}.jsonl`));
    expect(store.get(MAIN)?.updatedAt).toBe(1767261600000); // a path fix is not activity
    store.update(TOPIC, { inputTokens: 5 });
    expect(store.get(TOPIC)?.sessionFile).toBe(join(m.sessionsDir, `${GROUP_SID}-topic-42.jsonl`));
    await store.close();
    lock.release();
    const onDisk = JSON.parse(readFileSync(m.storePath, "utf8"));
    expect(onDisk[MAIN].sessionFile).toBe(join(m.sessionsDir, `${SID}.jsonl`));
    expect(onDisk[TOPIC].sessionFile).toBe(join(m.sessionsDir, `${GROUP_SID}-topic-42.jsonl`));
    expect(m.snapshotOld()).toEqual(before);
    const reread = openSessionStore({ storePath: m.storePath }).readTranscript(MAIN)!;
    expect(currentBranch(reread.entries).at(-1)?.id).toBe(appended.id);
  });

  it("archives the moved transcript on reset (not the old HOME's copy)", async () => {
    const m = movedState();
    const before = m.snapshotOld();
    const lock = acquireStateDirLock({ stateDir: m.newState });
    const store = closeWhenDone(openSessionStore({ storePath: m.storePath, lock }));
    const removal = store.reset(MAIN);
    expect(removal.archivedTranscript?.startsWith(join(m.sessionsDir, `${SID}.jsonl.reset.`))).toBe(
      true,
    );
    expect(m.snapshotOld()).toEqual(before);
    await store.close();
    lock.release();
  });

  it("finds a transcript whose recorded HOME does not exist on this machine", () => {
    const home = tempDir("pincer-new-home-");
    const fx = writeOpenClawStore({
      stateDir: join(home, ".openclaw"),
      recordedStateDir: "/home/ada-on-another-machine/.openclaw",
    });
    const store = openSessionStore({ storePath: fx.storePath });
    expect(store.readTranscript(MAIN)).toMatchObject({ file: fx.file, exists: true });
    expect(store.readTranscript(TOPIC)).toMatchObject({ file: fx.groupFile, exists: true });
  });

  it("starts a new transcript inside the store dir when the recorded one is nowhere", async () => {
    const home = tempDir("pincer-new-home-");
    const gone = join(tempDir("pincer-old-home-"), "gone"); // a temp dir, in case a bug writes there
    const fx = writeOpenClawStore({ stateDir: join(home, ".openclaw"), recordedStateDir: gone });
    rmSync(fx.groupFile);
    const lock = acquireStateDirLock({ stateDir: join(home, ".openclaw") });
    const store = closeWhenDone(openSessionStore({ storePath: fx.storePath, lock }));
    const transcript = store.openTranscript(TOPIC, { cwd: "/w" });
    transcript.appendMessage({ role: "user", content: "hello again" });
    expect(transcript.file).toBe(join(fx.sessionsDir, `${GROUP_SID}.jsonl`));
    expect(existsSync(gone)).toBe(false);
    expect(store.get(TOPIC)?.sessionFile).toBe(transcript.file);
    // The index on disk names the new file before it exists (never an orphan transcript).
    expect(openSessionStore({ storePath: fx.storePath }).get(TOPIC)?.sessionFile).toBe(
      transcript.file,
    );
    await store.close();
    lock.release();
  });

  it("uses the id-based transcript when the recorded one inside the dir is missing", async () => {
    const home = tempDir("pincer-new-home-");
    const fx = writeOpenClawStore({ stateDir: join(home, ".openclaw") });
    const index = JSON.parse(readFileSync(fx.storePath, "utf8"));
    index[MAIN].sessionFile = join(fx.sessionsDir, "renamed-away.jsonl");
    writeFileSync(fx.storePath, JSON.stringify(index));
    expect(openSessionStore({ storePath: fx.storePath }).readTranscript(MAIN)).toMatchObject({
      file: fx.file,
      exists: true,
    });
    const lock = acquireStateDirLock({ stateDir: join(home, ".openclaw") });
    const store = closeWhenDone(openSessionStore({ storePath: fx.storePath, lock }));
    expect(store.openTranscript(MAIN, { cwd: "/w" }).file).toBe(fx.file);
    expect(store.get(MAIN)?.sessionFile).toBe(fx.file);
    await store.close();
    lock.release();
  });
});

describe("a crafted sessionFile", () => {
  function craftedStore(sessionFile: string, sessionId = "victim") {
    const stateDir = tempDir("pincer-crafted-");
    const sessionsDir = join(stateDir, "agents", "main", "sessions");
    mkdirSync(sessionsDir, { recursive: true });
    const storePath = join(sessionsDir, "sessions.json");
    writeFileSync(storePath, JSON.stringify({ k: { sessionId, updatedAt: 1, sessionFile } }));
    return { stateDir, sessionsDir, storePath };
  }

  it.each([
    ["an absolute system file", () => "/etc/passwd"],
    ["a relative escape", () => "../../../../../../etc/hosts"],
  ])("never reads or writes %s", (_label, path) => {
    const c = craftedStore(path());
    const store = openSessionStore({ storePath: c.storePath });
    const read = store.readTranscript("k")!;
    expect(read.file).toBe(join(c.sessionsDir, "victim.jsonl"));
    expect(read.exists).toBe(false);
    expect(read.entries).toEqual([]);
  });

  it("never touches another agent's transcript it names", async () => {
    const c = craftedStore("");
    const otherDir = join(c.stateDir, "agents", "other", "sessions");
    mkdirSync(otherDir, { recursive: true });
    const other = join(otherDir, "secret.jsonl");
    const secret = `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" })}\n`;
    writeFileSync(other, secret);
    writeFileSync(
      c.storePath,
      JSON.stringify({ k: { sessionId: "victim", updatedAt: 1, sessionFile: other } }),
    );
    const lock = acquireStateDirLock({ stateDir: c.stateDir });
    const store = closeWhenDone(openSessionStore({ storePath: c.storePath, lock }));
    expect(store.readTranscript("k")?.exists).toBe(false);
    const transcript = store.openTranscript("k", { cwd: "/w" });
    transcript.appendMessage({ role: "user", content: "written here only" });
    expect(transcript.file).toBe(join(c.sessionsDir, "victim.jsonl"));
    expect(readFileSync(other, "utf8")).toBe(secret);
    store.delete("k");
    expect(readFileSync(other, "utf8")).toBe(secret);
    await store.close();
    lock.release();
  });

  it("does not follow a link inside the store dir that points out of it", () => {
    const outside = join(tempDir("pincer-outside-"), "target.jsonl");
    writeFileSync(outside, "not a transcript\n");
    const c = craftedStore("link.jsonl");
    symlinkSync(outside, join(c.sessionsDir, "link.jsonl"));
    const store = openSessionStore({ storePath: c.storePath });
    expect(store.readTranscript("k")).toMatchObject({
      file: join(c.sessionsDir, "victim.jsonl"),
      exists: false,
    });
  });

  it("has no transcript at all when neither the recorded name nor the id is a safe file name", () => {
    const c = craftedStore("/etc/shadow", "../escape");
    const store = openSessionStore({ storePath: c.storePath });
    expect(store.transcriptPath("k")).toBeUndefined();
  });
});
