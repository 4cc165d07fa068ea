// The exec gate: one call before a host `exec` runs. It applies the agent's policy (exec-policy.ts):
// "deny" refuses, "full" runs, "allowlist" runs what the safe bins and the approvals file allow;
// a miss with ask "on-miss" (or any command with ask "always") waits for an approval, a miss with
// ask "off" is refused. "allow-always" appends the command's executables to the approvals file.
// Every refusal tells the model why nothing ran and how the user can allow it.

import { type AllowlistVerdict, evaluateAllowlist } from "./allowlist.js";
import type { ExecPolicy } from "./exec-policy.js";
import type { ApprovalOutcome, ExecApprovalRequest } from "./types.js";

/** An agent's allowlist patterns, or why they cannot be read. */
export type AllowlistPatterns = { ok: true; patterns: string[] } | { ok: false; error: string };

/** What "allow always" added (the patterns not listed yet), or why nothing could be written. */
export type AllowlistAdded = { ok: true; added: string[] } | { ok: false; error: string };

/** The allowlist the gate reads and "allow always" extends: the state dir's approvals file
 *  (ApprovalsFileStore), or the gateway's, asked over the run queue from a worker. */
export interface ExecAllowlistHost {
  /** Where the allowlist lives, as the refusal messages name it. */
  readonly path: string;
  patternsFor(agentId: string): AllowlistPatterns | Promise<AllowlistPatterns>;
  addPatterns(params: {
    agentId: string;
    patterns: readonly string[];
    command: string;
  }): AllowlistAdded | Promise<AllowlistAdded>;
}

/** A raised request's end: its id, how it ended and how long it could wait; or why it could not
 *  be raised (a worker whose gateway does not answer). */
export type AskedApproval =
  | { ok: true; id: string; outcome: ApprovalOutcome; timeoutMs: number }
  | { ok: false; error: string };

/** Where the gate raises a request and waits for its answer (ExecApprovalQueue.ask, or the
 *  gateway's queue over the run queue); `signal` withdraws it. */
export interface ExecApprovalAsker {
  ask(request: ExecApprovalRequest, signal?: AbortSignal): Promise<AskedApproval>;
}

/** What the gate needs from the gateway; absent parts make a needed approval a refusal. */
export interface ExecApprovalsHost {
  queue?: ExecApprovalAsker;
  file?: ExecAllowlistHost;
}

/** Inputs of {@link gateExec}. */
export interface ExecGateParams {
  policy: ExecPolicy;
  approvals?: ExecApprovalsHost;
  command: string;
  cwd: string;
  /** The command's environment (PATH decides what a bare name runs). */
  env: Record<string, string | undefined>;
  /** The `env` the model passed: overriding PATH or the loader is a miss in allowlist mode. */
  extraEnv?: Record<string, string>;
  agentId: string;
  sessionKey?: string;
  signal?: AbortSignal;
  /** The node host the command runs on (`system.run`): the request names it, and the gateway's
   *  allowlist (paths on this host) cannot vouch for it, so allowlist mode always asks. */
  node?: { nodeId: string; name: string };
}

/** Run it (with a note for the model when an approval was involved), refuse it, or the run ended. */
export type ExecGateVerdict =
  | { allowed: true; note?: string }
  | { allowed: false; message: string }
  | { allowed: false; aborted: true };

const NOTHING_RAN = "Nothing was run.";

function source(key: string | undefined, fallback: string): string {
  return key ?? fallback;
}

function riskyEnv(extra: Record<string, string> | undefined): string | undefined {
  const names = Object.keys(extra ?? {});
  return names.find((n) => n === "PATH" || n.startsWith("LD_") || n.startsWith("DYLD_"));
}

async function checkAllowlist(p: ExecGateParams): Promise<AllowlistVerdict | { error: string }> {
  const risky = riskyEnv(p.extraEnv);
  if (risky) return { allowed: false, reason: `the call overrides ${risky} in env` };
  const patterns = (await p.approvals?.file?.patternsFor(p.agentId)) ?? {
    ok: true,
    patterns: [],
  };
  if (!patterns.ok) return { error: patterns.error };
  return evaluateAllowlist({
    command: p.command,
    cwd: p.cwd,
    env: p.env,
    patterns: patterns.patterns,
    safeBins: p.policy.safeBins,
  });
}

function howToAllow(p: ExecGateParams): string {
  const file = p.approvals?.file?.path ?? "<stateDir>/exec-approvals.json";
  return (
    `The user can allow it by adding the executable's path to agents.${p.agentId}.allowlist in ${file}, ` +
    `by setting ${source(p.policy.askSource, "tools.exec.ask")} to "on-miss" so such commands can be approved, ` +
    `or by setting ${source(p.policy.securitySource, "tools.exec.security")} to "full".`
  );
}

async function askApproval(
  p: ExecGateParams,
  verdict: AllowlistVerdict | undefined,
  reason: string,
) {
  const queue = p.approvals?.queue;
  if (!queue) {
    return {
      allowed: false as const,
      message: `exec needs an approval (${reason}), but no approval can be asked for here (approvals go through a running gateway). ${NOTHING_RAN}`,
    };
  }
  const request: ExecApprovalRequest = {
    command: p.command,
    cwd: p.cwd,
    agentId: p.agentId,
    ...(p.sessionKey ? { sessionKey: p.sessionKey } : {}),
    security: p.policy.security,
    ask: p.policy.ask,
    ...(verdict?.resolvedPaths ? { resolvedPaths: verdict.resolvedPaths } : {}),
    reason,
    ...(p.node ? { host: "node" as const, nodeId: p.node.nodeId, nodeName: p.node.name } : {}),
  };
  const asked = await queue.ask(request, p.signal);
  if (!asked.ok) {
    return {
      allowed: false as const,
      message: `exec needs an approval (${reason}), but it could not be asked for: ${asked.error}. ${NOTHING_RAN}`,
    };
  }
  const { id, outcome: answer, timeoutMs } = asked;
  switch (answer.decision) {
    case "aborted":
      return { allowed: false as const, aborted: true as const };
    case "timeout":
      return {
        allowed: false as const,
        message: `exec was denied: approval ${id} got no answer within ${Math.round(timeoutMs / 1000)} s (approval timed out). ${NOTHING_RAN} Ask the user to approve it in time (/approve, pincer approvals approve) or to allow it: ${howToAllow(p)}`,
      };
    case "deny":
      return {
        allowed: false as const,
        message: `exec was denied by the user (approval ${id}${answer.resolvedBy ? `, by ${answer.resolvedBy}` : ""}). ${NOTHING_RAN} Do not retry the same command unless the user asks for it.`,
      };
    case "allow-once":
      return { allowed: true as const, note: `Approved once (approval ${id}).` };
    case "allow-always":
      return { allowed: true as const, note: await persistAlways(p, verdict, id) };
  }
}

async function persistAlways(
  p: ExecGateParams,
  verdict: AllowlistVerdict | undefined,
  id: string,
): Promise<string> {
  if (!verdict) {
    return `Approved (approval ${id}); ask is "always", so every command is asked for anyway (nothing to add to the allowlist).`;
  }
  const paths = verdict.missedPaths ?? verdict.resolvedPaths;
  if (!paths || paths.length === 0 || !verdict.resolvedPaths) {
    return `Approved (approval ${id}); not added to the allowlist: the command's executables could not all be resolved.`;
  }
  const saved = await p.approvals?.file?.addPatterns({
    agentId: p.agentId,
    patterns: paths,
    command: p.command,
  });
  if (!saved) return `Approved (approval ${id}); no approvals file to remember it in.`;
  if (!saved.ok) return `Approved (approval ${id}) but not remembered: ${saved.error}`;
  return `Approved always (approval ${id}): ${paths.join(", ")} ${saved.added.length ? "added to" : "already in"} the allowlist.`;
}

/** Decides one `exec` call (see the file comment); never throws for a policy outcome. */
export async function gateExec(p: ExecGateParams): Promise<ExecGateVerdict> {
  const { policy } = p;
  switch (policy.security) {
    case "deny":
      return {
        allowed: false,
        message: `exec is refused: ${source(policy.securitySource, "tools.exec.security")} is "deny". ${NOTHING_RAN} The user can set it to "allowlist" (with approvals) or "full" to allow commands.`,
      };
    case "full":
      return policy.ask === "always"
        ? askApproval(p, undefined, `${source(policy.askSource, "tools.exec.ask")} is "always"`)
        : { allowed: true };
    case "allowlist": {
      const verdict = p.node
        ? {
            allowed: false,
            reason: `it runs on node ${p.node.name}, which this allowlist cannot vouch for`,
          }
        : await checkAllowlist(p);
      if ("error" in verdict) {
        return {
          allowed: false,
          message: `exec is refused: the approvals file cannot be used: ${verdict.error}. ${NOTHING_RAN} The user must fix or remove that file.`,
        };
      }
      if (verdict.allowed) {
        return policy.ask === "always"
          ? askApproval(p, verdict, `${source(policy.askSource, "tools.exec.ask")} is "always"`)
          : { allowed: true };
      }
      const reason = verdict.reason ?? "not on the allowlist";
      if (policy.ask === "off") {
        return {
          allowed: false,
          message: `exec is refused: the command is not on the allowlist (${reason}) and ${source(policy.askSource, "tools.exec.ask")} is "off". ${NOTHING_RAN} ${howToAllow(p)}`,
        };
      }
      return askApproval(p, verdict, reason);
    }
  }
}
