// The Docker backend under the real run loop: an agent with `sandbox.mode: "all"` on the docker
// backend, driven by the fake model calling `exec` and `write`. The command runs in the container
// (its hostname, not the host's), files land in the sandbox workspace and nowhere else, setupCommand
// ran once for two runs, and a timed-out exec is killed inside the container, not only its client.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { pruneGatewaySandboxes } from "../src/gateway/sandbox-prune.js";
import { silentLogger } from "../src/lib/logger.js";
import type { RunEvent } from "../src/runtime/run/index.js";
import { createDockerBackend } from "../src/runtime/sandbox/docker/backend.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";
import {
  dockerSkipNotice,
  ensureSandboxTestImage,
  probeDocker,
  removeSandboxContainers,
} from "./helpers/sandbox-image.js";

const probe = probeDocker();
const notice = dockerSkipNotice(probe);
if (notice) console.warn(notice);

let sb: RuntimeSandbox | undefined;
afterEach(async () => {
  if (sb) removeSandboxContainers(join(sb.stateDir, "sandboxes"));
  await sb?.close();
  sb = undefined;
});

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The tool results the model saw in its request number `index`. */
function toolResults(fake: RuntimeSandbox["fake"], index: number): string[] {
  const body = fake.chatRequests[index]?.body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return body.messages.filter((m) => m.role === "tool").map((m) => JSON.stringify(m.content));
}

describe.skipIf(notice !== undefined)("docker sandbox through the run loop", () => {
  let image = "";
  beforeAll(async () => {
    image = await ensureSandboxTestImage();
  }, 120_000);

  async function start(): Promise<RuntimeSandbox> {
    const box = await createRuntimeSandbox(() => ({
      agents: {
        list: [
          {
            id: "main",
            sandbox: {
              mode: "all",
              scope: "agent",
              backend: "docker",
              docker: { image, setupCommand: "echo once >> /workspace/setup.log" },
            },
          },
        ],
      },
    }));
    // The runtime sandbox's env has no PATH; the docker CLI is found through it.
    box.deps.env.PATH = process.env.PATH;
    return box;
  }

  it("runs exec and write inside the container, once set up, files only in the sandbox workspace", async () => {
    sb = await start();
    sb.fake.toolCalls([
      { name: "exec", args: { command: "hostname; echo from-exec > /workspace/exec.txt; ls /" } },
      { name: "write", args: { path: "/workspace/written.txt", content: "from-write" } },
    ]);
    sb.fake.text("done");
    const first = sb.run({ sessionKey: "agent:main:main", message: "go" });
    const [events, result] = await Promise.all([collect(first.events), first.result]);
    expect(result.status).toBe("ok");
    const ends = events.filter((e) => e.type === "tool_end");
    expect(ends.map((e) => [e.toolName, e.isError])).toEqual([
      ["exec", false],
      ["write", false],
    ]);
    const [execResult] = toolResults(sb.fake, 1);
    expect(execResult).not.toContain(hostname());
    expect(execResult).toContain("workspace");
    expect(execResult).not.toContain(".openclaw");
    const roots = readdirSync(join(sb.stateDir, "sandboxes")).filter(
      (name) => !name.startsWith("."),
    );
    expect(roots).toHaveLength(1);
    const sandboxDir = join(sb.stateDir, "sandboxes", roots[0] as string);
    expect(readFileSync(join(sandboxDir, "exec.txt"), "utf8")).toBe("from-exec\n");
    expect(readFileSync(join(sandboxDir, "written.txt"), "utf8")).toBe("from-write");
    expect(existsSync(join(sb.workspace, "exec.txt"))).toBe(false);
    expect(existsSync(join(sb.workspace, "written.txt"))).toBe(false);

    sb.fake.toolCalls([{ name: "exec", args: { command: "cat /workspace/setup.log" } }]);
    sb.fake.text("again");
    const second = sb.run({ sessionKey: "agent:main:main", message: "again" });
    await collect(second.events);
    expect((await second.result).status).toBe("ok");
    expect(toolResults(sb.fake, 3).join("")).toContain("once");
    expect(readFileSync(join(sandboxDir, "setup.log"), "utf8")).toBe("once\n");
  });

  it("a timed-out exec is killed inside the container", async () => {
    sb = await start();
    sb.fake.toolCalls([{ name: "exec", args: { command: "sleep 1234", timeout: 1 } }]);
    sb.fake.text("done");
    const run = sb.run({ sessionKey: "agent:main:main", message: "go" });
    await collect(run.events);
    expect((await run.result).status).toBe("ok");
    const ps = spawnSync(
      "docker",
      ["ps", "-q", "--filter", `label=pincer.workspaceRoot=${join(sb.stateDir, "sandboxes")}`],
      { encoding: "utf8" },
    );
    const [container] = ps.stdout.split("\n").filter(Boolean);
    expect(container).toBeDefined();
    const inside = spawnSync("docker", ["exec", container as string, "ps", "-eo", "args"], {
      encoding: "utf8",
    });
    expect(inside.stdout).not.toContain("sleep 1234");
  });

  it("the gateway's prune pass removes a container idle past sandbox.prune.idleHours, and only then", async () => {
    sb = await start();
    sb.fake.toolCalls([{ name: "exec", args: { command: "true" } }]);
    sb.fake.text("done");
    const run = sb.run({ sessionKey: "agent:main:main", message: "go" });
    await collect(run.events);
    expect((await run.result).status).toBe("ok");
    const root = join(sb.stateDir, "sandboxes");
    const listContainers = () =>
      spawnSync("docker", ["ps", "-aq", "--filter", `label=pincer.workspaceRoot=${root}`], {
        encoding: "utf8",
      })
        .stdout.split("\n")
        .filter(Boolean);
    expect(listContainers()).toHaveLength(1);
    const box = sb;
    const pass = (offsetMs: number) =>
      pruneGatewaySandboxes({
        config: () => box.deps.config,
        env: box.deps.env,
        logger: silentLogger,
        now: () => Date.now() + offsetMs,
        registry: { docker: createDockerBackend },
      });
    expect(await pass(0)).toBe(0);
    expect(listContainers()).toHaveLength(1);
    // OpenClaw's default idle limit is 24 h: a day and an hour later the container goes.
    expect(await pass(25 * 3_600_000)).toBe(1);
    expect(listContainers()).toHaveLength(0);
  });
});
