// The node's own policy on real processes: only declared commands run; system.run starts only
// executables on --allow (by bare name or real path; `*` any), refuses PATH/loader overrides and a cwd
// outside the roots, times out (killing the command) and caps its output; system.which finds bins.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { declaredCommands, handleInvoke, type NodeHostPolicy } from "./invoke.js";
import { RUN_OUTPUT_CAP_BYTES } from "./system-run.js";
import { whichExecutable } from "./which.js";

const dir = mkdtempSync(join(tmpdir(), "pincer-invoke-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH };
const policy = (allow: string[], roots: string[] = [dir]): NodeHostPolicy => ({
  allow,
  roots,
  env,
});

let ids = 0;
const invoke = (p: NodeHostPolicy, command: string, params: unknown) =>
  handleInvoke({
    policy: p,
    request: { id: `i${++ids}`, nodeId: "n", command, paramsJSON: JSON.stringify(params) },
  });

describe("the node's commands", () => {
  it("declares system.run only with an allow list and file commands only with roots", () => {
    expect(declaredCommands(policy([], []))).toEqual(["system.which"]);
    expect(declaredCommands(policy(["echo"]))).toEqual([
      "system.run",
      "system.which",
      "file.read",
      "file.write",
    ]);
  });

  it("refuses undeclared commands and bad params", async () => {
    expect(await invoke(policy([]), "system.run", { command: ["echo"] })).toMatchObject({
      ok: false,
      error: { code: "PERMISSION_DENIED" },
    });
    expect(await invoke(policy(["echo"]), "system.run", { command: "echo hi" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
  });

  it("runs allowed executables by name or real path; refuses others, env overrides and foreign cwds", async () => {
    const ok = await invoke(policy(["echo"]), "system.run", { command: ["echo", "a b"] });
    expect(ok).toMatchObject({
      ok: true,
      payload: { exitCode: 0, stdout: "a b\n", success: true },
    });
    const echoPath = (await whichExecutable("echo", env.PATH))!;
    const byPath = await invoke(policy([echoPath]), "system.run", { command: ["echo", "x"] });
    expect(byPath).toMatchObject({ ok: true, payload: { stdout: "x\n" } });
    const other = await invoke(policy(["echo"]), "system.run", {
      command: ["cat", "/etc/hostname"],
    });
    expect(other).toMatchObject({ ok: false, error: { code: "PERMISSION_DENIED" } });
    const env2 = await invoke(policy(["*"]), "system.run", {
      command: ["echo"],
      env: { LD_PRELOAD: "x" },
    });
    expect(env2).toMatchObject({ ok: false, error: { code: "PERMISSION_DENIED" } });
    const cwd = await invoke(policy(["*"]), "system.run", { command: ["echo"], cwd: "/" });
    expect(cwd).toMatchObject({ ok: false, error: { code: "PERMISSION_DENIED" } });
    const missing = await invoke(policy(["*"]), "system.run", { command: ["no-such-binary-here"] });
    expect(missing).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });

  it("reports exit codes, times out a long command and caps output", async () => {
    const failed = await invoke(policy(["sh"]), "system.run", {
      command: ["sh", "-c", "echo err >&2; exit 3"],
    });
    expect(failed).toMatchObject({
      ok: true,
      payload: { exitCode: 3, success: false, stderr: "err\n" },
    });
    const slow = await invoke(policy(["sleep"]), "system.run", {
      command: ["sleep", "30"],
      timeoutMs: 200,
    });
    expect(slow).toMatchObject({ ok: true, payload: { timedOut: true, success: false } });
    const big = await invoke(policy(["head"]), "system.run", {
      command: ["head", "-c", String(RUN_OUTPUT_CAP_BYTES * 2), "/dev/zero"],
    });
    expect(big).toMatchObject({ ok: true, payload: { truncated: true } });
    const payload = (big as { payload: { stdout: string } }).payload;
    expect(payload.stdout.length).toBe(RUN_OUTPUT_CAP_BYTES);
  });

  it("the host stopping kills a running command", async () => {
    const stop = new AbortController();
    const running = handleInvoke({
      policy: policy(["sleep"]),
      request: {
        id: "s1",
        nodeId: "n",
        command: "system.run",
        paramsJSON: '{"command":["sleep","30"]}',
      },
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 100);
    expect(await running).toMatchObject({
      ok: true,
      payload: { timedOut: false, success: false, exitCode: null },
    });
  });

  it("system.which finds what is on the node's PATH", async () => {
    const found = await invoke(policy([], []), "system.which", {
      bins: ["sh", "no-such-binary-here"],
    });
    expect(found).toMatchObject({ ok: true });
    const bins = (found as { payload: { bins: Record<string, string> } }).payload.bins;
    expect(Object.keys(bins)).toEqual(["sh"]);
  });
});
