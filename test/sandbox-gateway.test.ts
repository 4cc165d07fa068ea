// A gateway whose agent is sandboxed, driven by the fake model calling exec and write, once per
// backend: commands run in the sandbox (its hostname and filesystem), /workspace lands in the right
// host dir for each access mode, the state dir and another agent's files are unreachable,
// setupCommand runs once, and an unavailable backend is a clear tool error with nothing run on the host.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultSandboxBackends } from "../src/runtime/sandbox/registry.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  sendChat,
} from "./helpers/gateway-sandbox.js";
import { ensureSandboxTestImage, removeSandboxContainers } from "./helpers/sandbox-image.js";

type BackendId = "bwrap" | "docker";

/** Why a backend cannot be tested here, or undefined when it can. */
function missing(backend: BackendId): string | undefined {
  if (!defaultSandboxBackends()[backend]) return `the ${backend} backend is not in this build`;
  const probe =
    backend === "bwrap" ? spawnSync("bwrap", ["--version"]) : spawnSync("docker", ["info"]);
  if (probe.status !== 0) return `${backend} is not installed or not running`;
  return undefined;
}

let box: GatewaySandbox | undefined;
afterEach(async () => {
  // Docker's containers outlive the temp state dir: remove the ones made for it.
  if (box) removeSandboxContainers(join(box.stateDir, "sandboxes"));
  await box?.close();
  box = undefined;
});

/** The tool results the model saw in its last request. */
function toolResults(fake: GatewaySandbox["fake"]): string[] {
  const body = fake.chatRequests.at(-1)?.body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return body.messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe.each(["bwrap", "docker"] as const)("sandboxed gateway (%s)", (backend) => {
  const why = missing(backend);
  const inBuild = !!defaultSandboxBackends()[backend];
  if (why) {
    if (process.env.CI === "true" && inBuild)
      throw new Error(`${backend} is required under CI=true: ${why}`);
    console.warn(`\n*** SKIPPING sandbox gateway tests for ${backend}: ${why} ***\n`);
  }
  // Docker: PINCER_TEST_SANDBOX_IMAGE, else the test image built offline from the host's binaries.
  let image = process.env.PINCER_TEST_SANDBOX_IMAGE;
  beforeAll(async () => {
    if (backend === "docker" && !why && !image) image = await ensureSandboxTestImage();
  }, 120_000);
  const docker = (extra: Loose = {}) => ({ ...(image ? { image } : {}), ...extra });

  async function start(sandbox: Loose, extra: Loose = {}) {
    box = await createGatewaySandbox({
      config: () => ({
        ...extra,
        agents: {
          list: [
            {
              id: "main",
              sandbox: { backend, mode: "all", ...sandbox, docker: docker(sandbox.docker) },
            },
            { id: "other" },
          ],
        },
      }),
    });
    const workspace = join(box.home, "workspace");
    mkdirSync(workspace, { recursive: true });
    return { box, workspace, client: await box.connect() };
  }

  it.skipIf(!!why)(
    "rw: runs in the sandbox; /workspace is the agent workspace; state dir unreachable",
    async () => {
      const { box, workspace, client } = await start({ workspaceAccess: "rw" });
      const otherFile = join(box.home, "workspace-other", "diary.txt");
      mkdirSync(join(box.home, "workspace-other"), { recursive: true });
      writeFileSync(otherFile, "other agent secret");
      box.fake.toolCalls([
        { name: "exec", args: { command: "hostname; pwd" } },
        { name: "write", args: { path: "/workspace/out.txt", content: "from the sandbox" } },
        {
          name: "exec",
          args: { command: `cat ${join(box.stateDir, "openclaw.json")} || echo NO-STATE` },
        },
        {
          name: "exec",
          args: { command: `cat ${otherFile} || echo NO-OTHER; cat /workspace/out.txt` },
        },
      ]);
      box.fake.text("done");
      await sendChat(client, "go");
      const [where, wrote, state, other] = toolResults(box.fake);
      const [name, pwd] = (where ?? "").trim().split("\n");
      expect(name).not.toBe(hostname());
      expect(pwd).toBe("/workspace");
      expect(wrote).toContain("Wrote 16 bytes to /workspace/out.txt.");
      expect(readFileSync(join(workspace, "out.txt"), "utf8")).toBe("from the sandbox");
      expect(state).toContain("NO-STATE");
      expect(state).not.toContain("gateway");
      expect(other).toContain("NO-OTHER");
      expect(other).not.toContain("other agent secret");
      expect(other).toContain("from the sandbox");
    },
  );

  it.skipIf(!!why)(
    "none: a seeded sandbox workspace under workspaceRoot; setupCommand once",
    async () => {
      const { box, workspace, client } = await start({
        scope: "agent",
        docker: { setupCommand: "echo setup >> /workspace/setup.log" },
      });
      writeFileSync(join(workspace, "AGENTS.md"), "house rules");
      box.fake.toolCalls([
        { name: "write", args: { path: "note.txt", content: "n" } },
        { name: "exec", args: { command: "cat AGENTS.md; cat setup.log" } },
      ]);
      box.fake.text("one");
      await sendChat(client, "first");
      box.fake.toolCall("exec", { command: "cat setup.log" });
      box.fake.text("two");
      await sendChat(client, "second");
      const roots = readdirSync(join(box.stateDir, "sandboxes")).filter((n) => !n.startsWith("."));
      expect(roots).toHaveLength(1);
      const dir = join(box.stateDir, "sandboxes", roots[0] ?? "");
      expect(readFileSync(join(dir, "note.txt"), "utf8")).toBe("n");
      expect(existsSync(join(workspace, "note.txt"))).toBe(false);
      expect(readFileSync(join(dir, "setup.log"), "utf8")).toBe("setup\n");
      expect(toolResults(box.fake).at(-1)).toBe("setup\n");
    },
  );

  it.skipIf(!!why)("ro: writes are refused, in the file tools and inside the sandbox", async () => {
    const { box, workspace, client } = await start({ workspaceAccess: "ro" });
    box.fake.toolCalls([
      { name: "write", args: { path: "x.txt", content: "x" } },
      { name: "exec", args: { command: "touch /workspace/y.txt" } },
    ]);
    box.fake.text("done");
    await sendChat(client, "go");
    const [write, exec] = toolResults(box.fake);
    expect(write).toContain(
      '(agents.list[0].sandbox.workspaceAccess is "ro"); nothing was written.',
    );
    expect(exec).toMatch(/Read-only file system/);
    expect(existsSync(join(workspace, "x.txt"))).toBe(false);
    expect(existsSync(join(workspace, "y.txt"))).toBe(false);
  });

  it.skipIf(!!why)(
    "backend unavailable: a clear tool error and nothing runs on the host",
    async () => {
      const vars =
        backend === "bwrap"
          ? { PINCER_BWRAP: "/nonexistent/bwrap" }
          : { DOCKER_HOST: "unix:///nonexistent.sock" };
      const { box, client } = await start({ workspaceAccess: "rw" }, { env: { vars } });
      const marker = join(box.home, "ran-on-host");
      box.fake.toolCall("exec", { command: `touch ${marker}` });
      box.fake.text("done");
      await sendChat(client, "go");
      const [result] = toolResults(box.fake);
      expect(result).toContain("The sandbox is unavailable:");
      expect(result).toContain("never falls back to the host");
      expect(existsSync(marker)).toBe(false);
    },
  );

  it.skipIf(!!why)(
    "the README's family agent: exec and read allowed and sandboxed, write denied",
    async () => {
      box = await createGatewaySandbox({
        config: () => ({
          agents: {
            list: [
              { id: "main" },
              {
                id: "family",
                name: "Family",
                identity: { name: "Family Bot" },
                sandbox: { mode: "all", scope: "agent", backend, docker: docker() },
                tools: {
                  allow: [
                    "exec",
                    "read",
                    "sessions_list",
                    "sessions_history",
                    "sessions_send",
                    "sessions_spawn",
                    "session_status",
                  ],
                  deny: ["write", "edit", "apply_patch", "browser", "canvas", "nodes", "cron"],
                },
              },
            ],
          },
        }),
      });
      const client = await box.connect();
      box.fake.toolCalls([
        { name: "exec", args: { command: "hostname; echo hi > /workspace/f; cat /workspace/f" } },
        { name: "write", args: { path: "w.txt", content: "x" } },
      ]);
      box.fake.text("done");
      const res = await client.request("chat.send", {
        sessionKey: "agent:family:main",
        message: "go",
        idempotencyKey: "fam-1",
      });
      expect(res.ok).toBe(true);
      await client.waitFor(
        (f) => f.event === "chat" && ["final", "error"].includes((f.payload as Loose)?.state),
      );
      const body = box.fake.chatRequests.at(-1)?.body as {
        tools?: Array<{ function: { name: string } }>;
      };
      const offered = (body.tools ?? []).map((t) => t.function.name);
      expect(offered).toContain("exec");
      expect(offered).not.toContain("write");
      const [exec] = toolResults(box.fake);
      expect(exec).toContain("hi");
      expect(exec).not.toContain(hostname());
      expect(existsSync(join(box.home, "workspace", "f"))).toBe(false);
    },
  );
});

describe("gateway start", () => {
  it("notes once per sandboxed agent where its tools run, naming the key", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        agents: {
          list: [{ id: "main" }, { id: "family", sandbox: { mode: "all", backend: "bwrap" } }],
        },
      }),
    });
    const client = await box.connect();
    const lines = ((await client.request("logs.tail", { limit: 200 })).payload as Loose).lines.join(
      "\n",
    );
    const notice =
      'agents.list[1].sandbox.mode is "all": agent "family"\'s tools run in a bwrap sandbox in every session';
    expect(lines.split(notice).length - 1).toBe(1);
    expect(lines).not.toContain("agents.list[0].sandbox.mode");
    expect(lines).not.toContain("not available yet");
  });
});
