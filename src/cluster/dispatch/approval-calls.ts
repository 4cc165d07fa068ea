// The gateway's side of a worker's exec approvals: the worker's gate reads and extends the
// gateway's approvals file, and raises its requests in the gateway's pending queue — where they are
// broadcast, announced in the session's chat and answered (`/approve`, `pincer approvals`, the
// Control UI) exactly like an in-process run's. A request is raised (`ask`: answered at once with its
// id) and then waited on (`wait`: answered at its end), so neither NATS request outlives a known
// bound; `withdraw` ends one whose run was aborted on the worker. A request no worker waits on any
// more (its worker died) times out as any other.
import type { ApprovalsFileStore, ExecApprovalQueue } from "../../runtime/approvals/index.js";
import type { ApprovalOutcome } from "../../runtime/approvals/types.js";
import type { ApprovalsHostCall, HostCallReply } from "../queue/host-call.js";

/** The gateway's approvals a worker reaches: its pending queue and its approvals file. */
export interface GatewayApprovals {
  queue: ExecApprovalQueue;
  file: ApprovalsFileStore;
}

/** How long an ended request's outcome is kept for a `wait` that arrives after it ended. */
const KEEP_ENDED_MS = 60_000;

interface Raised {
  withdraw: AbortController;
  outcome: Promise<ApprovalOutcome>;
}

/** Answers the `approvals` host calls; one per gateway (it remembers the requests it raised). */
export class ApprovalCalls {
  private readonly raised = new Map<string, Raised>();

  constructor(private readonly approvals: GatewayApprovals) {}

  /** The answer to one call. */
  async answer(call: ApprovalsHostCall): Promise<HostCallReply> {
    const { queue, file } = this.approvals;
    switch (call.method) {
      case "patterns": {
        const read = file.patternsFor(call.agentId);
        return read.ok ? { ok: true, payload: { patterns: read.patterns } } : read;
      }
      case "add": {
        const saved = file.addPatterns(call);
        return saved.ok ? { ok: true, payload: { added: saved.added } } : saved;
      }
      case "ask": {
        const withdraw = new AbortController();
        const { approval, outcome } = queue.request(call.request, withdraw.signal);
        this.raised.set(approval.id, { withdraw, outcome });
        void outcome.then(() => {
          setTimeout(() => this.raised.delete(approval.id), KEEP_ENDED_MS).unref();
        });
        return { ok: true, payload: { id: approval.id, timeoutMs: queue.timeoutMs } };
      }
      case "wait": {
        const raised = this.raised.get(call.id);
        if (!raised) return { ok: false, error: `no approval ${call.id} raised by a worker here` };
        const outcome = await raised.outcome;
        this.raised.delete(call.id);
        return { ok: true, payload: outcome };
      }
      case "withdraw":
        this.raised.get(call.id)?.withdraw.abort();
        return { ok: true, payload: {} };
    }
  }
}
