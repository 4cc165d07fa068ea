// The worker's approvals host over a scripted host caller: what it sends, and what the gate gets
// back when the gateway answers, refuses, does not answer or the run is aborted meanwhile.
import { describe, expect, it } from "vitest";
import type { ExecApprovalRequest } from "../../runtime/approvals/types.js";
import type { HostCallReply, HostCallRequest } from "../queue/host-call.js";
import { remoteApprovals } from "./remote-approvals.js";

const request: ExecApprovalRequest = {
  command: "uname -s",
  cwd: "/tmp",
  agentId: "main",
  security: "allowlist",
  ask: "on-miss",
  reason: "uname is not on the allowlist",
};

/** A caller answering by method; `wait` answers only when `release` is called. */
function scripted(answers: Partial<Record<string, HostCallReply>>) {
  const sent: Array<{ call: HostCallRequest; timeoutMs: number }> = [];
  let release: (reply: HostCallReply) => void = () => {};
  const caller = async (call: HostCallRequest, timeoutMs: number): Promise<HostCallReply> => {
    sent.push({ call, timeoutMs });
    const method = (call as { method: string }).method;
    if (method === "wait" && !answers.wait)
      return new Promise((resolve) => {
        release = resolve;
      });
    return answers[method] ?? { ok: false, error: `unscripted ${method}` };
  };
  return { caller, sent, release: (reply: HostCallReply) => release(reply) };
}

describe("remoteApprovals", () => {
  it("raises, then waits the gateway's timeout plus a margin, and returns the outcome", async () => {
    const { caller, sent } = scripted({
      ask: { ok: true, payload: { id: "a1", timeoutMs: 5000 } },
      wait: { ok: true, payload: { decision: "allow-always", resolvedBy: "cli" } },
    });
    const asked = await remoteApprovals(caller).queue!.ask(request);
    expect(asked).toEqual({
      ok: true,
      id: "a1",
      outcome: { decision: "allow-always", resolvedBy: "cli" },
      timeoutMs: 5000,
    });
    expect(sent.map((s) => (s.call as { method: string }).method)).toEqual(["ask", "wait"]);
    expect(sent[1]!.timeoutMs).toBe(15_000);
  });

  it("an abort while waiting withdraws the request on the gateway and ends at once", async () => {
    const { caller, sent } = scripted({
      ask: { ok: true, payload: { id: "a2", timeoutMs: 5000 } },
    });
    const abort = new AbortController();
    const pending = remoteApprovals(caller).queue!.ask(request, abort.signal);
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    expect(await pending).toMatchObject({ ok: true, id: "a2", outcome: { decision: "aborted" } });
    expect(sent.at(-1)?.call).toEqual({ tool: "approvals", method: "withdraw", id: "a2" });
  });

  it("a gateway that does not answer, or answers nonsense, is an error the gate reports", async () => {
    const silent = scripted({});
    expect(await remoteApprovals(silent.caller).queue!.ask(request)).toEqual({
      ok: false,
      error: "unscripted ask",
    });
    const odd = scripted({
      ask: { ok: true, payload: { id: "a3", timeoutMs: 1 } },
      wait: { ok: true, payload: { decision: "maybe" } },
    });
    expect(await remoteApprovals(odd.caller).queue!.ask(request)).toMatchObject({
      ok: false,
      error: expect.stringContaining("not an outcome"),
    });
    const file = remoteApprovals(silent.caller).file!;
    expect(await file.patternsFor("main")).toEqual({ ok: false, error: "unscripted patterns" });
  });
});
