// The vocabulary of exec approvals (OpenClaw's names): the security and ask modes of `tools.exec`,
// an approval's decision, a pending request as clients see it, and how a request ended.

/** `tools.exec.security`: refuse every command, only allowlisted ones, or every one. */
export const EXEC_SECURITY_MODES = ["deny", "allowlist", "full"] as const;
/** Static type of {@link EXEC_SECURITY_MODES}. */
export type ExecSecurity = (typeof EXEC_SECURITY_MODES)[number];

/** `tools.exec.ask`: never ask, ask when the allowlist misses, ask for every command. */
export const EXEC_ASK_MODES = ["off", "on-miss", "always"] as const;
/** Static type of {@link EXEC_ASK_MODES}. */
export type ExecAsk = (typeof EXEC_ASK_MODES)[number];

/** An answer to an approval request (`exec.approval.resolve`, `/approve`, `pincer approvals`). */
export const APPROVAL_DECISIONS = ["allow-once", "allow-always", "deny"] as const;
/** Static type of {@link APPROVAL_DECISIONS}. */
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** What a pending request asks about: the command, where and for whom it would run. */
export interface ExecApprovalRequest {
  command: string;
  cwd: string;
  agentId: string;
  sessionKey?: string;
  security: ExecSecurity;
  ask: ExecAsk;
  /** The executables the command's segments resolve to (absent: one could not be resolved). */
  resolvedPaths?: string[];
  /** Why the allowlist did not cover it ("ask: always" when it did). */
  reason: string;
  /** Set when the command runs on a node host (`nodes` tool, `system.run`): OpenClaw's `host`. */
  host?: "node";
  /** The node it runs on: its id and display name. */
  nodeId?: string;
  nodeName?: string;
}

/** A pending request: its id and lifetime, as `exec.approval.requested` and `exec.approval.list` show it. */
export interface PendingExecApproval {
  id: string;
  request: ExecApprovalRequest;
  createdAtMs: number;
  expiresAtMs: number;
}

/** How a request ended: answered, timed out, or dropped because its run was aborted. */
export type ApprovalOutcome =
  | { decision: ApprovalDecision; resolvedBy?: string }
  | { decision: "timeout" }
  | { decision: "aborted" };

/** True for one of {@link APPROVAL_DECISIONS}. */
export function isApprovalDecision(value: string): value is ApprovalDecision {
  return (APPROVAL_DECISIONS as readonly string[]).includes(value);
}
