// Exec approvals and elevated mode: the policy (exec-policy.ts), the allowlist
// (allowlist.ts, safe-bins.ts, shell-words.ts), the approvals file (approvals-file.ts), the pending
// requests (pending.ts), the gate `exec` calls (gate.ts) and the elevated levels (elevated.ts).
export { type AllowlistVerdict, evaluateAllowlist, patternMatches } from "./allowlist.js";
export {
  APPROVALS_FILE_NAME,
  type ApprovalsFile,
  ApprovalsFileStore,
  type ApprovalsRead,
} from "./approvals-file.js";
export {
  ELEVATED_LEVELS,
  type ElevatedLevel,
  effectiveElevatedLevel,
  elevatedAllowList,
  elevatedAvailability,
  isElevatedLevel,
} from "./elevated.js";
export {
  type ExecHost,
  type ExecPolicy,
  resolveExecHost,
  resolveExecPolicy,
} from "./exec-policy.js";
export {
  type AllowlistAdded,
  type AllowlistPatterns,
  type AskedApproval,
  type ExecAllowlistHost,
  type ExecApprovalAsker,
  type ExecApprovalsHost,
  type ExecGateParams,
  type ExecGateVerdict,
  gateExec,
} from "./gate.js";
export {
  type ApprovalEnded,
  type ApprovalListener,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  describeOutcome,
  ExecApprovalQueue,
  type ExecApprovalQueueParams,
  type ResolveResult,
} from "./pending.js";
export { DEFAULT_SAFE_BINS } from "./safe-bins.js";
export {
  APPROVAL_DECISIONS,
  type ApprovalDecision,
  type ApprovalOutcome,
  EXEC_ASK_MODES,
  EXEC_SECURITY_MODES,
  type ExecApprovalRequest,
  type ExecAsk,
  type ExecSecurity,
  isApprovalDecision,
  type PendingExecApproval,
} from "./types.js";
