// `/approve <id> allow-once|allow-always|deny` (OpenClaw's): answers a pending exec approval from the
// chat it was announced in. A chat sender may answer only the requests of this conversation's
// session (an operator's chat.send may answer any); alone, `/approve` lists this session's pending
// requests. The id may be the 8-character prefix the announcement shows. An unknown id or a second
// answer is refused with the reason, and nothing changes.
import {
  APPROVAL_DECISIONS,
  isApprovalDecision,
  type PendingExecApproval,
} from "../../runtime/approvals/index.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

const USAGE = `Usage: /approve <id> ${APPROVAL_DECISIONS.join("|")}`;

function mine(request: CommandRequest, approval: PendingExecApproval): boolean {
  return request.chatType === "operator" || approval.request.sessionKey === request.sessionKey;
}

function listPending(request: CommandRequest, host: CommandHost): string {
  const pending = (host.approvals?.list() ?? []).filter((a) => mine(request, a));
  if (pending.length === 0) return `No exec approval is waiting here. ${USAGE}`;
  const lines = pending.map(
    (a) => `${a.id.slice(0, 8)}: ${a.request.command} (in ${a.request.cwd})`,
  );
  return [`Waiting for approval:`, ...lines, USAGE].join("\n");
}

function approve(request: CommandRequest, host: CommandHost): CommandOutcome {
  const queue = host.approvals;
  if (!queue) return { text: "Exec approvals are not available here." };
  const [id, rawDecision, ...extra] = request.args.trim().split(/\s+/).filter(Boolean);
  if (!id) return { text: listPending(request, host) };
  const decision = rawDecision?.toLowerCase() ?? "";
  if (!isApprovalDecision(decision) || extra.length > 0) return { text: USAGE };
  const found = queue.lookup(id);
  if (!found.ok) return { text: `Cannot answer: ${found.error}.` };
  const pending = queue.list().find((a) => a.id === found.id);
  if (pending && !mine(request, pending)) {
    return {
      text: `Approval ${id} belongs to another conversation: answer it there, or with pincer approvals.`,
    };
  }
  const resolvedBy = `chat:${request.channel}:${request.senderId}`;
  const result = queue.resolve({ id: found.id, decision, resolvedBy });
  if (!result.ok) return { text: `Cannot answer: ${result.error}.` };
  const short = result.approval.id.slice(0, 8);
  const what =
    decision === "deny"
      ? "denied; the command does not run"
      : decision === "allow-always"
        ? "allowed always; the command runs now and its executables join the allowlist"
        : "allowed once; the command runs now";
  return { text: `Exec approval ${short} ${what}.` };
}

/** The approval command definitions. */
export const approvalCommands: CommandDefinition[] = [
  {
    name: "approve",
    aliases: [],
    args: `<id> ${APPROVAL_DECISIONS.join("|")}`,
    description: "answer a pending exec approval (alone: list this chat's pending ones)",
    changesState: true,
    run: approve,
  },
];
