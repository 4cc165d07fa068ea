// The pending exec approvals of one gateway, in memory only (a restart forgets them; their runs
// ended with it). A request waits for one answer until its timeout (OpenClaw's default, 120 s),
// which denies it; an aborted run withdraws its request. Each request is resolved exactly once: a
// second answer is an error value naming how it already ended. Ids are UUIDs; a unique prefix of
// one (the 8 characters the chat announcement shows) is accepted wherever an id is.
import { randomUUID } from "node:crypto";
import type { AskedApproval } from "./gate.js";
import type {
  ApprovalDecision,
  ApprovalOutcome,
  ExecApprovalRequest,
  PendingExecApproval,
} from "./types.js";

/** OpenClaw's default time an approval request waits for an answer. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** How many ended requests are remembered, so a late second answer gets a precise error. */
const ENDED_MEMORY = 200;

/** A request ended: answered (with who answered), timed out or withdrawn. */
export interface ApprovalEnded {
  approval: PendingExecApproval;
  outcome: ApprovalOutcome;
  ts: number;
}

/** Who is told about requests (the gateway: events and the chat announcement). */
export interface ApprovalListener {
  requested(approval: PendingExecApproval): void;
  resolved(ended: ApprovalEnded): void;
}

/** A resolve: the request it answered, or why nothing was answered. */
export type ResolveResult =
  | { ok: true; approval: PendingExecApproval }
  | { ok: false; error: string };

interface Waiting {
  approval: PendingExecApproval;
  settle: (outcome: ApprovalOutcome) => void;
}

/** Inputs of {@link ExecApprovalQueue}. */
export interface ExecApprovalQueueParams {
  now?: () => number;
  /** How long a request waits (default {@link DEFAULT_APPROVAL_TIMEOUT_MS}). */
  timeoutMs?: number;
  listener?: ApprovalListener;
}

/** The pending requests (see the file comment). */
export class ExecApprovalQueue {
  private readonly waiting = new Map<string, Waiting>();
  private readonly ended = new Map<string, ApprovalEnded>();
  private readonly now: () => number;
  /** How long a request waits for an answer. */
  readonly timeoutMs: number;

  constructor(private readonly params: ExecApprovalQueueParams = {}) {
    this.now = params.now ?? Date.now;
    this.timeoutMs = params.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  }

  /** Raises a request; the promise settles with its answer, its timeout or the signal's abort. */
  request(
    request: ExecApprovalRequest,
    signal?: AbortSignal,
  ): { approval: PendingExecApproval; outcome: Promise<ApprovalOutcome> } {
    const createdAtMs = this.now();
    const approval: PendingExecApproval = {
      id: randomUUID(),
      request,
      createdAtMs,
      expiresAtMs: createdAtMs + this.timeoutMs,
    };
    const outcome = new Promise<ApprovalOutcome>((settleOutcome) => {
      const timer = setTimeout(
        () => this.finish(approval.id, { decision: "timeout" }),
        this.timeoutMs,
      );
      const onAbort = () => this.finish(approval.id, { decision: "aborted" });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(approval.id, {
        approval,
        settle: (result) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          settleOutcome(result);
        },
      });
    });
    if (signal?.aborted) this.finish(approval.id, { decision: "aborted" });
    else this.params.listener?.requested(approval);
    return { approval, outcome };
  }

  /** {@link request} awaited: the gate's view (ExecApprovalAsker). */
  async ask(request: ExecApprovalRequest, signal?: AbortSignal): Promise<AskedApproval> {
    const { approval, outcome } = this.request(request, signal);
    return { ok: true, id: approval.id, outcome: await outcome, timeoutMs: this.timeoutMs };
  }

  /** The pending requests, oldest first. */
  list(): PendingExecApproval[] {
    return [...this.waiting.values()].map((w) => w.approval);
  }

  /** The full id `wanted` names among pending (and recently ended) requests, or why none. */
  lookup(wanted: string): { ok: true; id: string } | { ok: false; error: string } {
    const text = wanted.trim().toLowerCase();
    if (text === "") return { ok: false, error: "an approval id is required" };
    const ids = [...this.waiting.keys(), ...this.ended.keys()];
    if (ids.includes(text)) return { ok: true, id: text };
    const matches = ids.filter((id) => id.startsWith(text));
    if (matches.length === 1) return { ok: true, id: matches[0]! };
    if (matches.length > 1)
      return { ok: false, error: `approval id "${wanted}" is ambiguous; give more characters` };
    return { ok: false, error: `unknown approval id "${wanted}" (it may have expired long ago)` };
  }

  /** Answers a pending request once; an unknown id or a second answer is an error value. */
  resolve(params: { id: string; decision: ApprovalDecision; resolvedBy?: string }): ResolveResult {
    const found = this.lookup(params.id);
    if (!found.ok) return found;
    const waiting = this.waiting.get(found.id);
    if (!waiting) {
      const ended = this.ended.get(found.id)!;
      return {
        ok: false,
        error: `approval ${found.id} was already ${describeOutcome(ended.outcome)}`,
      };
    }
    const outcome: ApprovalOutcome = {
      decision: params.decision,
      ...(params.resolvedBy ? { resolvedBy: params.resolvedBy } : {}),
    };
    this.finish(found.id, outcome);
    return { ok: true, approval: waiting.approval };
  }

  private finish(id: string, outcome: ApprovalOutcome): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    const ended: ApprovalEnded = { approval: waiting.approval, outcome, ts: this.now() };
    this.ended.set(id, ended);
    if (this.ended.size > ENDED_MEMORY) this.ended.delete(this.ended.keys().next().value!);
    waiting.settle(outcome);
    this.params.listener?.resolved(ended);
  }
}

/** "answered allow-once (by cli)", "timed out", "withdrawn (its run was aborted)". */
export function describeOutcome(outcome: ApprovalOutcome): string {
  switch (outcome.decision) {
    case "timeout":
      return "timed out (denied)";
    case "aborted":
      return "withdrawn (its run was aborted)";
    case "allow-once":
    case "allow-always":
    case "deny":
      return `answered ${outcome.decision}${outcome.resolvedBy ? ` by ${outcome.resolvedBy}` : ""}`;
  }
}
