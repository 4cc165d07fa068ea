import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { acquireStateDirLock, openSessionStore } from "../../sessions/index.js";
import { bootstrapModeFor } from "./report.js";

describe("bootstrapModeFor", () => {
  it("tells main, sub-agent and other sessions apart", () => {
    expect(bootstrapModeFor("agent:main:main", "agent:main:main")).toBe("main");
    expect(bootstrapModeFor("agent:main:subagent:abc", "agent:main:main")).toBe("subagent");
    expect(bootstrapModeFor("agent:main:telegram:group:-1", "agent:main:main")).toBe("other");
  });
});

describe("pincer context", () => {
  it("reports the seeded workspace files, skills and prompt sections", async () => {
    const sb = createCliSandbox();
    expect((await sb.run(["setup"])).code).toBe(0);
    const res = await sb.run(["context", "--json"]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.files.map((f: { name: string }) => f.name)).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
      "HEARTBEAT.md",
      "BOOTSTRAP.md",
    ]);
    const sum = report.systemPrompt.sections.reduce(
      (n: number, s: { chars: number }) => n + s.chars,
      0,
    );
    expect(sum).toBe(report.systemPrompt.chars);
    expect(report.systemPrompt.chars).toBeLessThan(8000);
    expect(report.skills.entries.map((e: { name: string }) => e.name)).toContain("pincer-config");
    const text = await sb.run(["context", "--detail"]);
    expect(text.stdout).toContain("Context for agent main, session agent:main:main");
    expect(text.stdout).toContain("System prompt sections:");
  });

  it("measures the session's history and uses its skills snapshot", async () => {
    const sb = createCliSandbox();
    await sb.run(["setup"]);
    const lock = acquireStateDirLock({ stateDir: sb.stateDir });
    const store = openSessionStore({
      storePath: join(sb.stateDir, "agents", "main", "sessions", "sessions.json"),
      lock,
    });
    const snapshot = {
      version: 1,
      takenAt: 1,
      skills: [],
      prompt: "<available_skills>frozen</available_skills>",
    };
    store.getOrCreate("agent:main:main", { chatType: "direct", skillsSnapshot: snapshot });
    const transcript = store.openTranscript("agent:main:main", { cwd: sb.home });
    transcript.appendMessage({ role: "user", content: "hello" });
    transcript.appendMessage({ role: "assistant", content: [{ type: "text", text: "hi there" }] });
    await store.close();
    lock.release();
    const report = JSON.parse((await sb.run(["context", "--json"])).stdout);
    expect(report.history.messages).toBe(2);
    expect(report.history.chars).toBeGreaterThan("hellohi there".length);
    expect(report.totals.historyChars).toBe(report.history.chars);
    // The session's skills snapshot wins over what discovery would find now.
    expect(report.skills.chars).toBe(snapshot.prompt.length);
  });

  it("uses the minimal prompt and only AGENTS.md + TOOLS.md for a sub-agent session", async () => {
    const sb = createCliSandbox();
    await sb.run(["setup"]);
    const res = await sb.run(["context", "--session", "agent:main:subagent:x1", "--json"]);
    const report = JSON.parse(res.stdout);
    expect(report.mode).toBe("minimal");
    expect(report.files.map((f: { name: string }) => f.name)).toEqual(["AGENTS.md", "TOOLS.md"]);
    expect(report.skills.count).toBe(0);
  });

  it("marks a truncated file and refuses a session of another agent", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(
      `{ agents: { defaults: { bootstrapMaxChars: 500 }, list: [{ id: "main" }, { id: "ops" }] } }`,
    );
    const ws = join(sb.stateDir, "workspace");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "AGENTS.md"), "x".repeat(2000));
    const report = JSON.parse((await sb.run(["context", "--json"])).stdout);
    const agents = report.files.find((f: { name: string }) => f.name === "AGENTS.md");
    expect(agents).toMatchObject({ truncated: true, rawChars: 2000 });
    expect(report.files.find((f: { name: string }) => f.name === "SOUL.md").missing).toBe(true);
    const bad = await sb.run(["context", "--agent", "main", "--session", "agent:ops:main"]);
    expect(bad.code).toBe(2);
  });
});
