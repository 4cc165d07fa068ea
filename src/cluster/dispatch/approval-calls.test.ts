// The gateway's answers to a worker's approvals calls, over a real pending queue and approvals file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ApprovalsFileStore, ExecApprovalQueue } from "../../runtime/approvals/index.js";
import type { ExecApprovalRequest } from "../../runtime/approvals/types.js";
import { ApprovalCalls } from "./approval-calls.js";

const root = mkdtempSync(join(tmpdir(), "pincer-approval-calls-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const request: ExecApprovalRequest = {
  command: "uname -s",
  cwd: "/tmp",
  agentId: "main",
  security: "allowlist",
  ask: "on-miss",
  resolvedPaths: ["/usr/bin/uname"],
  reason: "uname is not on the allowlist",
};

let dirs = 0;
function setup(timeoutMs = 60_000) {
  const queue = new ExecApprovalQueue({ timeoutMs });
  const file = new ApprovalsFileStore({ stateDir: join(root, `s${dirs++}`) });
  return { queue, file, calls: new ApprovalCalls({ queue, file }) };
}

async function raise(calls: ApprovalCalls): Promise<string> {
  const asked = await calls.answer({ tool: "approvals", method: "ask", request });
  if (!asked.ok) throw new Error(asked.error);
  return (asked.payload as { id: string }).id;
}

describe("ApprovalCalls", () => {
  it("raises a request in the gateway's queue and answers wait with its end", async () => {
    const { queue, calls } = setup();
    const id = await raise(calls);
    expect(queue.list().map((approval) => approval.id)).toEqual([id]);
    const waited = calls.answer({ tool: "approvals", method: "wait", id });
    queue.resolve({ id, decision: "allow-once", resolvedBy: "cli" });
    expect(await waited).toEqual({
      ok: true,
      payload: { decision: "allow-once", resolvedBy: "cli" },
    });
  });

  it("answers a wait that arrives after the end, and refuses an id it never raised", async () => {
    const { queue, calls } = setup();
    const id = await raise(calls);
    queue.resolve({ id, decision: "deny" });
    expect(await calls.answer({ tool: "approvals", method: "wait", id })).toEqual({
      ok: true,
      payload: { decision: "deny" },
    });
    expect(await calls.answer({ tool: "approvals", method: "wait", id: "nope" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("no approval nope"),
    });
  });

  it("withdraw ends the request as aborted; a timeout ends it as timeout", async () => {
    const { queue, calls } = setup(20);
    const id = await raise(calls);
    const waited = calls.answer({ tool: "approvals", method: "wait", id });
    await calls.answer({ tool: "approvals", method: "withdraw", id });
    expect(await waited).toEqual({ ok: true, payload: { decision: "aborted" } });
    expect(queue.list()).toEqual([]);
    const late = await raise(calls);
    expect(await calls.answer({ tool: "approvals", method: "wait", id: late })).toEqual({
      ok: true,
      payload: { decision: "timeout" },
    });
  });

  it("reads and extends the gateway's approvals file", async () => {
    const { calls } = setup();
    expect(await calls.answer({ tool: "approvals", method: "patterns", agentId: "main" })).toEqual({
      ok: true,
      payload: { patterns: [] },
    });
    const add = { agentId: "main", patterns: ["/usr/bin/uname"], command: "uname -s" };
    expect(await calls.answer({ tool: "approvals", method: "add", ...add })).toEqual({
      ok: true,
      payload: { added: ["/usr/bin/uname"] },
    });
    expect(await calls.answer({ tool: "approvals", method: "patterns", agentId: "main" })).toEqual({
      ok: true,
      payload: { patterns: ["/usr/bin/uname"] },
    });
  });
});
