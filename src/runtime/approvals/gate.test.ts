import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ApprovalsFileStore } from "./approvals-file.js";
import type { ExecPolicy } from "./exec-policy.js";
import { resolveExecHost } from "./exec-policy.js";
import { type ExecGateParams, gateExec } from "./gate.js";
import { type ApprovalEnded, ExecApprovalQueue } from "./pending.js";
import type { PendingExecApproval } from "./types.js";

const root = mkdtempSync(join(tmpdir(), "pincer-gate-"));
const bin = join(root, "bin");
mkdirSync(bin);
for (const name of ["uname", "jq"]) {
  writeFileSync(join(bin, name), "#!/bin/sh\n");
  chmodSync(join(bin, name), 0o755);
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Lets the gate get past its allowlist read (a promise) to raising its request. */
const raised = () => new Promise<void>((resolve) => setImmediate(resolve));

let dirs = 0;
function setup(policy: Partial<ExecPolicy>, timeoutMs = 60_000) {
  const stateDir = join(root, `state-${dirs++}`);
  mkdirSync(stateDir);
  const requested: PendingExecApproval[] = [];
  const ended: ApprovalEnded[] = [];
  const queue = new ExecApprovalQueue({
    timeoutMs,
    listener: { requested: (a) => requested.push(a), resolved: (e) => ended.push(e) },
  });
  const file = new ApprovalsFileStore({ stateDir, now: () => 1000 });
  const params = (command: string, extra: Partial<ExecGateParams> = {}): ExecGateParams => ({
    policy: { security: "allowlist", ask: "on-miss", safeBins: ["jq"], ...policy },
    approvals: { queue, file },
    command,
    cwd: root,
    env: { PATH: bin },
    agentId: "main",
    sessionKey: "agent:main:main",
    ...extra,
  });
  return { stateDir, queue, file, requested, ended, params };
}

describe("gateExec", () => {
  it("deny refuses every command, naming the key; full runs them", async () => {
    const { params } = setup({ security: "deny", securitySource: "tools.exec.security" });
    const verdict = await gateExec(params("jq ."));
    expect(verdict).toMatchObject({ allowed: false });
    expect("message" in verdict && verdict.message).toContain('tools.exec.security is "deny"');
    expect(await gateExec(setup({ security: "full" }).params("rm -rf /nowhere"))).toEqual({
      allowed: true,
    });
  });

  it("allowlist: a safe bin runs without asking; a miss with ask off is refused with how to allow it", async () => {
    const { params, requested } = setup({ ask: "off", askSource: "tools.exec.ask" });
    expect(await gateExec(params("jq .name"))).toEqual({ allowed: true });
    const verdict = await gateExec(params("uname -a"));
    expect("message" in verdict && verdict.message).toContain(
      `${join(bin, "uname")} is not on the allowlist`,
    );
    expect("message" in verdict && verdict.message).toContain("exec-approvals.json");
    expect(requested).toHaveLength(0);
  });

  it("a miss waits for an answer; allow-once runs it once, deny refuses it", async () => {
    const { params, queue, requested, ended } = setup({});
    const once = gateExec(params("uname -a"));
    await raised(); // the allowlist is read (maybe remotely) before the request
    expect(requested).toHaveLength(1);
    expect(requested[0]!.request).toMatchObject({
      command: "uname -a",
      agentId: "main",
      sessionKey: "agent:main:main",
      resolvedPaths: [join(bin, "uname")],
    });
    expect(
      queue.resolve({ id: requested[0]!.id.slice(0, 8), decision: "allow-once" }),
    ).toMatchObject({ ok: true });
    expect(await once).toMatchObject({ allowed: true });
    // A second answer is an error value; nothing changes.
    const again = queue.resolve({ id: requested[0]!.id, decision: "deny" });
    expect(again).toEqual({
      ok: false,
      error: expect.stringContaining("already answered allow-once"),
    });
    expect(ended).toHaveLength(1);
    const denied = gateExec(params("uname -a"));
    await raised(); // the allowlist is read (maybe remotely) before the request
    queue.resolve({ id: requested[1]!.id, decision: "deny", resolvedBy: "cli" });
    const verdict = await denied;
    expect("message" in verdict && verdict.message).toContain("denied by the user");
  });

  it("allow-always persists the executable; the next call runs without asking", async () => {
    const { params, queue, requested, file, stateDir } = setup({});
    writeFileSync(
      join(stateDir, "exec-approvals.json"),
      JSON.stringify({
        version: 1,
        socket: { path: "/x" },
        agents: { other: { allowlist: [{ pattern: "/bin/x" }] } },
      }),
    );
    const pending = gateExec(params("uname -a | jq ."));
    await raised(); // the allowlist is read (maybe remotely) before the request
    queue.resolve({ id: requested[0]!.id, decision: "allow-always" });
    expect(await pending).toMatchObject({
      allowed: true,
      note: expect.stringContaining("added to the allowlist"),
    });
    const stored = JSON.parse(readFileSync(file.path, "utf8"));
    expect(stored.socket).toEqual({ path: "/x" });
    expect(stored.agents.other.allowlist).toEqual([{ pattern: "/bin/x" }]);
    expect(stored.agents.main.allowlist).toEqual([
      expect.objectContaining({
        pattern: join(bin, "uname"),
        source: "allow-always",
        lastUsedCommand: "uname -a | jq .",
      }),
    ]);
    expect(await gateExec(params("uname -r"))).toEqual({ allowed: true });
    expect(requested).toHaveLength(1);
  });

  it("a request that gets no answer is denied at its timeout", async () => {
    const { params, ended } = setup({}, 20);
    const verdict = await gateExec(params("uname"));
    expect("message" in verdict && verdict.message).toContain("approval timed out");
    expect(ended[0]!.outcome).toEqual({ decision: "timeout" });
  });

  it("an aborted run withdraws its request", async () => {
    const { params, queue } = setup({});
    const abort = new AbortController();
    const pending = gateExec(params("uname", { signal: abort.signal }));
    await raised(); // the allowlist is read (maybe remotely) before the request
    expect(queue.list()).toHaveLength(1);
    abort.abort();
    expect(await pending).toEqual({ allowed: false, aborted: true });
    expect(queue.list()).toHaveLength(0);
  });

  it("ask always asks even for allowlisted commands; an env PATH override is a miss", async () => {
    const { params, requested, queue } = setup({ ask: "always" });
    const pending = gateExec(params("jq ."));
    await raised(); // the allowlist is read (maybe remotely) before the request
    expect(requested[0]!.request.reason).toContain('"always"');
    queue.resolve({ id: requested[0]!.id, decision: "allow-once" });
    await pending;
    const off = setup({ ask: "off" });
    const verdict = await gateExec(off.params("jq .", { extraEnv: { PATH: "/tmp" } }));
    expect("message" in verdict && verdict.message).toContain("overrides PATH");
  });

  it("a broken approvals file refuses, naming the file; it is not overwritten", async () => {
    const { params, stateDir, file } = setup({});
    writeFileSync(join(stateDir, "exec-approvals.json"), "{ not json");
    const verdict = await gateExec(params("uname"));
    expect("message" in verdict && verdict.message).toContain(`${file.path} is not valid JSON`);
    expect(file.addPatterns({ agentId: "main", patterns: ["/bin/y"], command: "y" })).toMatchObject(
      { ok: false },
    );
    expect(readFileSync(file.path, "utf8")).toBe("{ not json");
    writeFileSync(file.path, JSON.stringify({ version: 2 }));
    expect(file.read()).toEqual({
      ok: false,
      error: expect.stringContaining('"version" is 2, expected 1'),
    });
  });

  it("without a gateway queue, a needed approval is refused with the reason", async () => {
    const { params } = setup({});
    const verdict = await gateExec(params("uname", { approvals: {} }));
    expect("message" in verdict && verdict.message).toContain("no approval can be asked for here");
  });
});

describe("resolveExecHost", () => {
  it("runs in the sandbox only when sandboxed and not elevated", () => {
    expect(resolveExecHost({ sandboxed: true, elevated: false })).toBe("sandbox");
    expect(resolveExecHost({ sandboxed: true, elevated: true })).toBe("host");
    expect(resolveExecHost({ sandboxed: false, elevated: false })).toBe("host");
  });
});
