// The runtime's between-turn caches never hide a change: an edited AGENTS.md, an auth profile added by
// another process, a transcript line written by someone else and a deleted workspace are all seen by
// the very next turn (real runtime, real files, the fake OpenAI server on 127.0.0.1).
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const KEY = "agent:main:main";

async function turn(box: RuntimeSandbox, message: string): Promise<void> {
  box.fake.text(`re: ${message}`);
  const result = await box.run({ sessionKey: KEY, message }).result;
  expect(result.status).toBe("ok");
}

function lastRequest(box: RuntimeSandbox): {
  system: string;
  texts: string;
  auth: string | undefined;
} {
  const request = box.fake.chatRequests.at(-1)!;
  const body = request.body as { messages: Array<{ role: string; content: unknown }> };
  return {
    system: String(body.messages[0]?.content),
    texts: JSON.stringify(body.messages),
    auth: request.headers.authorization,
  };
}

describe("runtime caches", () => {
  it("sees an edited AGENTS.md on the next turn, and a new MEMORY.md", async () => {
    sb = await createRuntimeSandbox();
    await turn(sb, "one");
    const agents = join(sb.workspace, "AGENTS.md");
    expect(lastRequest(sb).system).not.toContain("rule-alpha");
    writeFileSync(agents, "# Rules\nrule-alpha\n");
    await turn(sb, "two");
    expect(lastRequest(sb).system).toContain("rule-alpha");
    // Same length, different text: still seen.
    writeFileSync(agents, "# Rules\nrule-bravo\n");
    await turn(sb, "three");
    expect(lastRequest(sb).system).toContain("rule-bravo");
    expect(lastRequest(sb).system).not.toContain("rule-alpha");
    writeFileSync(join(sb.workspace, "MEMORY.md"), "memory-charlie\n");
    await turn(sb, "four");
    expect(lastRequest(sb).system).toContain("memory-charlie");
  });

  it("uses an auth profile another process added, from the next turn on", async () => {
    sb = await createRuntimeSandbox();
    await turn(sb, "one");
    expect(lastRequest(sb).auth).toBe("Bearer sk-test");
    const agentDir = join(sb.stateDir, "agents", "main", "agent");
    const store = {
      version: 1,
      profiles: { "fake:work": { type: "api_key", provider: "fake", key: "sk-profile" } },
    };
    const script =
      "const fs=require('node:fs');const [dir,text]=process.argv.slice(1);" +
      "fs.mkdirSync(dir,{recursive:true});fs.writeFileSync(dir+'/.a.tmp',text);" +
      "fs.renameSync(dir+'/.a.tmp',dir+'/auth-profiles.json');";
    const child = spawnSync(process.execPath, ["-e", script, agentDir, JSON.stringify(store)]);
    expect(child.status).toBe(0);
    await turn(sb, "two");
    expect(lastRequest(sb).auth).toBe("Bearer sk-profile");
  });

  it("re-reads a transcript changed by someone else instead of writing over it", async () => {
    sb = await createRuntimeSandbox();
    await turn(sb, "one");
    const file = sb.deps.stores.forAgent("main").transcriptPath(KEY)!;
    const outsider = {
      type: "message",
      id: "outside1",
      parentId: null,
      timestamp: new Date().toISOString(),
      message: { role: "user", content: "written-by-an-outsider", timestamp: Date.now() },
    };
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const last = JSON.parse(lines.at(-1)!) as { id: string };
    appendFileSync(file, `${JSON.stringify({ ...outsider, parentId: last.id })}\n`);
    await turn(sb, "two");
    expect(lastRequest(sb).texts).toContain("written-by-an-outsider");
    const after = readFileSync(file, "utf8").trim().split("\n");
    expect(after.every((line) => JSON.parse(line))).toBeTruthy();
    expect(after.some((line) => line.includes("written-by-an-outsider"))).toBe(true);
    expect(after.at(-1)).toContain("re: two");
  });

  it("seeds a workspace again after it was deleted", async () => {
    sb = await createRuntimeSandbox();
    await turn(sb, "one");
    expect(existsSync(join(sb.workspace, "AGENTS.md"))).toBe(true);
    rmSync(sb.workspace, { recursive: true, force: true });
    await turn(sb, "two"); // finds it gone (the missing-file markers), forgets the seeding
    await turn(sb, "three");
    expect(existsSync(join(sb.workspace, "AGENTS.md"))).toBe(true);
  });

  it("runs a new session's turns without a blocking fsync, looking its transcript up once", async () => {
    sb = await createRuntimeSandbox();
    for (const message of ["one", "two", "three"]) await turn(sb, message);
    const stats = sb.deps.stores.forAgent("main").stats();
    expect(stats.blockingSyncs).toBe(0);
    expect(stats.transcriptLookups).toBe(1);
  });
});
