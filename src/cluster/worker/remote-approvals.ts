// The exec approvals of a worker's runs: its gate reads the agent's allowlist from the gateway's
// approvals file, raises a needed approval in the gateway's pending queue (broadcast, announced in
// the session's chat and answered there like an in-process run's) and waits for its end, and writes
// "allow always" into the gateway's file — over the run queue (`<prefix>.host`; the gateway side is
// src/cluster/dispatch/approval-calls.ts). The allowlist's patterns are paths: they match on the
// worker's host, which runs the command (the README asks for the same paths on every host). A gateway
// that does not answer makes the command a refusal naming why; nothing runs unapproved.
import type {
  AllowlistAdded,
  AllowlistPatterns,
  AskedApproval,
  ExecApprovalsHost,
} from "../../runtime/approvals/index.js";
import type { ApprovalOutcome, ExecApprovalRequest } from "../../runtime/approvals/types.js";
import { type HostCallReply, isStrings } from "../queue/host-call.js";
import { HOST_CALL_TIMEOUT_MS, type HostCaller } from "./remote-tool-hosts.js";

/** Added to the gateway's approval timeout: its `wait` answer comes only when the request ended. */
const WAIT_MARGIN_MS = 10_000;

/** The string list at `key` of the gateway's answer, or why there is none. */
function stringsOf(
  answer: HostCallReply,
  key: "patterns" | "added",
): { ok: true; value: string[] } | { ok: false; error: string } {
  if (!answer.ok) return answer;
  const value = (answer.payload as Record<string, unknown> | null)?.[key];
  return isStrings(value)
    ? { ok: true, value }
    : { ok: false, error: `the gateway's allowlist answer has no ${key} list` };
}

function outcomeOf(payload: unknown): ApprovalOutcome | undefined {
  const decision = (payload as { decision?: unknown } | null)?.decision;
  const resolvedBy = (payload as { resolvedBy?: unknown }).resolvedBy;
  switch (decision) {
    case "timeout":
    case "aborted":
      return { decision };
    case "allow-once":
    case "allow-always":
    case "deny":
      return { decision, ...(typeof resolvedBy === "string" ? { resolvedBy } : {}) };
    default:
      return undefined;
  }
}

/** The gate's approvals host over `call` (the worker's host calls). */
export function remoteApprovals(call: HostCaller): ExecApprovalsHost {
  const ask = async (
    request: ExecApprovalRequest,
    signal?: AbortSignal,
  ): Promise<AskedApproval> => {
    if (signal?.aborted)
      return { ok: true, id: "", outcome: { decision: "aborted" }, timeoutMs: 0 };
    const raised = await call({ tool: "approvals", method: "ask", request }, HOST_CALL_TIMEOUT_MS);
    if (!raised.ok) return raised;
    const { id, timeoutMs } = (raised.payload ?? {}) as { id?: unknown; timeoutMs?: unknown };
    if (typeof id !== "string" || typeof timeoutMs !== "number")
      return { ok: false, error: "the gateway's answer to the approval request has no id" };
    const withdraw = () =>
      void call({ tool: "approvals", method: "withdraw", id }, HOST_CALL_TIMEOUT_MS);
    // Aborted meanwhile: the request is withdrawn on the gateway, the run ends now.
    if (signal?.aborted) {
      withdraw();
      return { ok: true, id, outcome: { decision: "aborted" }, timeoutMs };
    }
    // The listener goes when the wait ends: a long run asking many times keeps none behind.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<AskedApproval>((resolve) => {
      onAbort = () => {
        withdraw();
        resolve({ ok: true, id, outcome: { decision: "aborted" }, timeoutMs });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    const ended = call({ tool: "approvals", method: "wait", id }, timeoutMs + WAIT_MARGIN_MS).then(
      (answer): AskedApproval => {
        if (!answer.ok) return { ok: false, error: `approval ${id}: ${answer.error}` };
        const outcome = outcomeOf(answer.payload);
        return outcome
          ? { ok: true, id, outcome, timeoutMs }
          : { ok: false, error: `approval ${id}: the gateway's answer is not an outcome` };
      },
    );
    return Promise.race([ended, aborted]).finally(() => {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    });
  };
  return {
    queue: { ask },
    file: {
      path: "the gateway's exec-approvals.json",
      patternsFor: async (agentId): Promise<AllowlistPatterns> => {
        const request = { tool: "approvals", method: "patterns", agentId } as const;
        const read = stringsOf(await call(request, HOST_CALL_TIMEOUT_MS), "patterns");
        return read.ok ? { ok: true, patterns: read.value } : read;
      },
      addPatterns: async (params): Promise<AllowlistAdded> => {
        const request = { tool: "approvals", method: "add", ...params } as const;
        const added = stringsOf(
          await call({ ...request, patterns: [...params.patterns] }, HOST_CALL_TIMEOUT_MS),
          "added",
        );
        return added.ok ? { ok: true, added: added.value } : added;
      },
    },
  };
}
