import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createExecTool, type ExecDetails } from "./exec.js";
import { invokeTool } from "./invoke.js";
import { ProcessRegistry } from "./process-registry.js";
import { createProcessTool, type JobSummary } from "./process-tool.js";
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from "./types.js";

const registries: ProcessRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((jobs) => jobs.stopAll()));
});

function setup(opts: { limits?: Partial<ToolLimits>; timeoutSec?: number; scope?: string } = {}) {
  const dir = realpathSync(makeTempDir("pincer-tools-exec-"));
  const jobs = new ProcessRegistry();
  registries.push(jobs);
  const limits = { ...DEFAULT_TOOL_LIMITS, killGraceMs: 200, ...opts.limits };
  const scope = opts.scope ?? "main";
  const exec = createExecTool({
    workspaceDir: dir,
    workspaceOnly: false,
    jobs,
    scope,
    limits,
    ...(opts.timeoutSec ? { timeoutSec: opts.timeoutSec } : {}),
  });
  const proc = createProcessTool({ jobs, scope, limits });
  return { dir, jobs, exec, proc, limits };
}

function text(outcome: { content: Array<{ type: string; text?: string }> }): string {
  return outcome.content.map((block) => block.text ?? "").join("\n");
}

/** True while `pid` runs (a zombie waiting to be reaped counts as dead). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (existsSync("/proc/self/stat")) {
    if (!existsSync(stat)) return false;
    return !/^\d+ \(.*\) Z/.test(readFileSync(stat, "utf8"));
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("exec", () => {
  it("runs in the workspace and returns combined output with exit code 0", async () => {
    const { dir, exec } = setup();
    const out = await invokeTool({ tool: exec, args: { command: "pwd; echo err >&2" } });
    expect(out.isError).toBe(false);
    expect(text(out)).toContain(dir);
    expect(text(out)).toContain("err");
    expect(out.details).toMatchObject({ status: "completed", exitCode: 0, cwd: dir });
  });

  it("resolves workdir relative to the workspace and rejects a missing one", async () => {
    const { dir, exec } = setup();
    mkdirSync(join(dir, "sub"));
    expect(text(await invokeTool({ tool: exec, args: { command: "pwd", workdir: "sub" } }))).toBe(
      `${join(dir, "sub")}\n`,
    );
    const missing = await invokeTool({ tool: exec, args: { command: "pwd", workdir: "nope" } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("does not exist");
  });

  it("reports a non-zero exit as an error with the output and the code", async () => {
    const { exec } = setup();
    const out = await invokeTool({ tool: exec, args: { command: "echo partial; exit 3" } });
    expect(out.isError).toBe(true);
    expect(text(out)).toBe("partial\n\n\nCommand exited with code 3.");
  });

  it("kills a command that runs past its timeout", async () => {
    const { exec } = setup();
    const started = Date.now();
    const out = await invokeTool({
      tool: exec,
      args: { command: "echo begin; sleep 30", timeout: 1 },
    });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("begin");
    expect(text(out)).toContain("Command timed out after 1 seconds and was killed.");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("uses tools.exec.timeoutSec as the default timeout", async () => {
    const { exec } = setup({ timeoutSec: 1 });
    expect(exec.description).toContain("Default timeout 1 s");
    const out = await invokeTool({ tool: exec, args: { command: "sleep 30" } });
    expect(text(out)).toContain("timed out after 1 seconds");
  });

  it("kills the whole process group when the signal aborts", async () => {
    const { dir, exec } = setup();
    const controller = new AbortController();
    const pidFile = join(dir, "child.pid");
    const pending = invokeTool({
      tool: exec,
      args: { command: `sleep 30 & echo $! > ${pidFile}; wait` },
      signal: controller.signal,
    });
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    const childPid = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(childPid)).toBe(true);
    controller.abort();
    const out = await pending;
    expect(out).toMatchObject({ isError: true });
    expect(text(out)).toBe("Tool exec was aborted.");
    await waitUntil(() => !alive(childPid));
  });

  it("keeps the head and the tail of long output", async () => {
    const { exec } = setup({ limits: { execMaxOutputChars: 400 } });
    const out = await invokeTool({
      tool: exec,
      args: { command: "echo FIRST; seq 1 5000; echo LAST" },
    });
    const body = text(out);
    expect(body.startsWith("FIRST\n")).toBe(true);
    expect(body.trimEnd().endsWith("LAST")).toBe(true);
    expect(body).toMatch(/\[\.\.\. \d+ characters of output omitted \.\.\.\]/);
    expect(body.length).toBeLessThan(500);
    expect((out.details as ExecDetails).truncated).toBe(true);
  });

  it("streams progress updates while running", async () => {
    const { exec } = setup();
    const updates: string[] = [];
    await invokeTool({
      tool: exec,
      args: { command: "echo tick; sleep 0.2; echo tock" },
      onUpdate: (partial) =>
        updates.push(partial.content.map((c) => (c.type === "text" ? c.text : "")).join("")),
    });
    expect(updates[0]).toContain("tick");
  });
});

describe("exec background + process", () => {
  it("hands a background command to process: poll, log, kill, list, remove", async () => {
    const { exec, proc, jobs } = setup();
    const started = await invokeTool({
      tool: exec,
      args: { command: "echo ready; sleep 30", background: true },
    });
    expect(started.isError).toBe(false);
    const { jobId } = started.details as ExecDetails;
    expect(text(started)).toContain(`job ${jobId}`);

    await waitUntil(() => (jobs.get("main", jobId ?? "")?.process.output.total ?? 0) > 0);
    const first = await invokeTool({ tool: proc, args: { action: "poll", jobId } });
    const polled = text(first);
    expect(polled).toContain("ready");
    expect(polled).toContain(`[job ${jobId}: running`);
    const second = await invokeTool({ tool: proc, args: { action: "poll", jobId } });
    expect(text(second)).toContain("(no new output)");
    expect(text(await invokeTool({ tool: proc, args: { action: "log", jobId } }))).toContain(
      "ready",
    );

    const listed = await invokeTool({ tool: proc, args: { action: "list" } });
    expect((listed.details as JobSummary[]).map((job) => job.jobId)).toEqual([jobId]);

    const stillRunning = await invokeTool({ tool: proc, args: { action: "remove", jobId } });
    expect(stillRunning.isError).toBe(true);
    const killed = await invokeTool({ tool: proc, args: { action: "kill", jobId } });
    expect(killed.details).toMatchObject({ status: "killed" });
    expect(text(await invokeTool({ tool: proc, args: { action: "remove", jobId } }))).toBe(
      `Removed job ${jobId}.`,
    );
    expect(text(await invokeTool({ tool: proc, args: { action: "list" } }))).toBe(
      "No background jobs.",
    );
  });

  it("reports the exit of a finished job and caps what a poll returns", async () => {
    const { exec, proc } = setup({ limits: { pollMaxChars: 100 } });
    const started = await invokeTool({
      tool: exec,
      args: { command: "seq 1 2000; exit 2", background: true },
    });
    const { jobId } = started.details as ExecDetails;
    const out = await invokeTool({ tool: proc, args: { action: "poll", jobId, waitMs: 5000 } });
    expect(out.details).toMatchObject({ status: "exited", exitCode: 2 });
    expect(text(out)).toContain("earlier characters omitted");
    expect(text(out)).toContain("2000");
    expect(text(out).length).toBeLessThan(250);
  });

  it("keeps jobs of other scopes invisible and explains unknown ids", async () => {
    const a = setup({ scope: "main" });
    const started = await invokeTool({
      tool: a.exec,
      args: { command: "sleep 5", background: true },
    });
    const { jobId } = started.details as ExecDetails;
    const other = createProcessTool({ jobs: a.jobs, scope: "work", limits: a.limits });
    const out = await invokeTool({ tool: other, args: { action: "poll", jobId } });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain(`No background job "${jobId}"`);
    expect(text(await invokeTool({ tool: a.proc, args: { action: "poll" } }))).toContain(
      "needs a jobId",
    );
  });

  it("refuses background when the process tool is not available", async () => {
    const { dir, jobs } = setup();
    const exec = createExecTool({
      workspaceDir: dir,
      workspaceOnly: false,
      jobs,
      scope: "main",
      limits: DEFAULT_TOOL_LIMITS,
      allowBackground: false,
    });
    const out = await invokeTool({ tool: exec, args: { command: "sleep 1", background: true } });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("needs the process tool");
    expect(jobs.list("main")).toEqual([]);
  });
});
