// `~/.openclaw` moved to another HOME or machine ("mover workspace a otra máquina"): OpenClaw's index
// keeps absolute `sessionFile` paths under the old HOME. The CLI, chat.history and the next turn still see
// every session's history, and nothing is written outside the new state dir.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  openClient,
  payloadOf,
} from "./helpers/gateway-sandbox.js";
import { GROUP_SID, SID, writeOpenClawStore } from "./helpers/openclaw-store.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

const MAIN = "agent:main:main";
const OLD_HISTORY = ["What's on today?", "Two meetings.", "Thanks!"];
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every file under `dir` with its bytes: what "nothing changed there" is checked against. */
function snapshotTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return files;
}

/** OpenClaw's state written under an old HOME (kept, to catch writes there), copied into `stateDir`. */
function moveOpenClawState(stateDir: string) {
  const oldHome = mkdtempSync(join(tmpdir(), "pincer-old-home-"));
  cleanups.push(() => rmSync(oldHome, { recursive: true, force: true }));
  const oldState = join(oldHome, ".openclaw");
  writeOpenClawStore({ stateDir: oldState });
  cpSync(join(oldState, "agents"), join(stateDir, "agents"), { recursive: true });
  const sessionsDir = join(stateDir, "agents", "main", "sessions");
  return {
    oldHome,
    oldState,
    sessionsDir,
    transcript: join(sessionsDir, `${SID}.jsonl`),
    before: snapshotTree(oldHome),
  };
}

function jsonLines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("a moved OpenClaw state dir", () => {
  it("the next turn sees the old history, appends to the moved transcript and rewrites the index", async () => {
    const sb: RuntimeSandbox = await createRuntimeSandbox();
    cleanups.push(() => sb.close());
    const moved = moveOpenClawState(sb.stateDir);
    sb.fake.text("Yes, two meetings.");
    const result = await sb.run({ sessionKey: MAIN, message: "Do you remember my day?" }).result;
    expect(result.status).toBe("ok");
    const prompt = JSON.stringify(sb.fake.chatRequests[0]!.body);
    expect(prompt).toContain("Thanks!");
    expect(prompt).toContain("Ada asked about her day."); // the compaction summary
    await sb.deps.stores.closeAll();

    const lines = jsonLines(moved.transcript);
    expect(lines[0]).toMatchObject({ type: "session", id: SID });
    const texts = JSON.stringify(lines);
    for (const text of [...OLD_HISTORY, "Do you remember my day?", "Yes, two meetings."]) {
      expect(texts).toContain(text);
    }
    const index = JSON.parse(readFileSync(join(moved.sessionsDir, "sessions.json"), "utf8"));
    expect(index[MAIN].sessionFile).toBe(moved.transcript);
    expect(snapshotTree(moved.oldHome)).toEqual(moved.before);
  });

  it("pincer sessions list/show keep everything, with the config's workspace still under the old HOME", async () => {
    const cli = createCliSandbox();
    cleanups.push(() => rmSync(cli.home, { recursive: true, force: true }));
    cli.writeConfig(
      JSON.stringify({
        agents: {
          defaults: { workspace: "/home/ada/.openclaw/workspace" },
          list: [{ id: "main" }],
        },
      }),
    );
    const moved = moveOpenClawState(cli.stateDir);
    const listed = await cli.run(["sessions", "list", "--json"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(MAIN);
    expect(listed.stdout).toContain("topic:42");

    const shown = JSON.parse((await cli.run(["sessions", "show", "main", "--json"])).stdout);
    expect(shown.transcript).toMatchObject({ file: moved.transcript, exists: true, entries: 7 });
    const text = await cli.run(["sessions", "show", "main"]);
    expect(text.stdout).not.toContain("not created yet");
    expect(text.stdout).toContain("Thanks!");
    const topic = JSON.parse(
      (
        await cli.run([
          "sessions",
          "show",
          "agent:main:telegram:group:-1001234567890:topic:42",
          "--json",
        ])
      ).stdout,
    );
    expect(topic.transcript).toMatchObject({
      file: join(moved.sessionsDir, `${GROUP_SID}-topic-42.jsonl`),
      exists: true,
    });
    expect(snapshotTree(moved.oldHome)).toEqual(moved.before);
    expect(existsSync("/home/ada")).toBe(false);
  });

  it("chat.history over the gateway returns the moved history, and a chat turn continues it", async () => {
    const box: GatewaySandbox = await createGatewaySandbox();
    cleanups.push(() => box.close());
    await box.gw.close("moving state");
    const moved = moveOpenClawState(box.stateDir);
    const gw: GatewayHandle = await startGateway({ env: box.env, port: 0, watchConfig: false });
    cleanups.push(() => gw.close("test done"));
    const client = await openClient(gw.url);
    expect((await client.request("connect", connectParams())).ok).toBe(true);

    const history = payloadOf(await client.request("chat.history", { sessionKey: "main" }));
    expect(history.sessionId).toBe(SID);
    expect(JSON.stringify(history.messages)).toContain("Thanks!");

    box.fake.text("Welcome back.");
    await client.request("agent", {
      message: "hello from the new machine",
      idempotencyKey: "mv-1",
    });
    const waited = await client.request("agent.wait", { runId: "mv-1", timeoutMs: 10_000 }, 15_000);
    expect(payloadOf(waited)).toMatchObject({ status: "ok" });
    const after = payloadOf(await client.request("chat.history", { sessionKey: "main" }));
    const texts = JSON.stringify(after.messages);
    for (const text of ["Thanks!", "hello from the new machine", "Welcome back."]) {
      expect(texts).toContain(text);
    }
    expect(JSON.stringify(box.fake.chatRequests[0]!.body)).toContain("Thanks!");
    expect(snapshotTree(moved.oldHome)).toEqual(moved.before);
  });
});
