// The gateway's exec approvals: one pending queue (in memory: a restart forgets pending requests,
// whose runs ended with it) and the state dir's approvals file. Each request is broadcast as
// `exec.approval.requested` (to operator.approvals clients) and announced into the chat the
// session last talked in, so a phone user can answer with /approve; each end (answered, timed out,
// withdrawn) is broadcast as `exec.approval.resolved` and, unless answered from that chat, told there.
import type { ChannelHost } from "../../channels/host-types.js";
import type { Logger } from "../../lib/logger.js";
import { resolveAgentIdFromSessionKey } from "../../routing/index.js";
import {
  type ApprovalEnded,
  ApprovalsFileStore,
  describeOutcome,
  ExecApprovalQueue,
  type PendingExecApproval,
} from "../../runtime/approvals/index.js";
import type { SessionStoreRegistry } from "../../sessions/index.js";
import type { EmitEvent } from "../events/event-fanout.js";

/** Prefix of `resolvedBy` for answers given in a chat (`/approve`): that chat needs no echo. */
export const CHAT_RESOLVER_PREFIX = "chat:";

/** Inputs of {@link createExecApprovalHub}. */
export interface ExecApprovalHubParams {
  stateDir: string;
  now: () => number;
  /** How long a request waits (default OpenClaw's 120 s). */
  timeoutMs?: number;
  broadcast: EmitEvent;
  /** The running channel host (absent: no channel is configured; nothing is announced). */
  channels: () => ChannelHost | undefined;
  /** The session stores (read when a request is announced: the session's last chat). */
  stores: () => SessionStoreRegistry;
  logger: Logger;
}

/** The queue and file the runs, methods and chat commands share. */
export interface ExecApprovalHub {
  queue: ExecApprovalQueue;
  file: ApprovalsFileStore;
}

/** The 8 characters of an id the chat shows (a unique prefix is accepted everywhere). */
export function shortApprovalId(id: string): string {
  return id.slice(0, 8);
}

interface ChatTarget {
  channel: string;
  to: string;
  accountId?: string;
  threadId?: string;
}

function chatOf(
  stores: SessionStoreRegistry,
  sessionKey: string | undefined,
): ChatTarget | undefined {
  if (!sessionKey) return undefined;
  const entry = stores.forAgent(resolveAgentIdFromSessionKey(sessionKey)).get(sessionKey);
  if (!entry?.lastChannel || !entry.lastTo) return undefined;
  return {
    channel: entry.lastChannel,
    to: entry.lastTo,
    ...(entry.lastAccountId ? { accountId: entry.lastAccountId } : {}),
    ...(entry.lastThreadId !== undefined ? { threadId: String(entry.lastThreadId) } : {}),
  };
}

/** The chat announcement of a new request. */
export function requestAnnouncement(approval: PendingExecApproval): string {
  const { request } = approval;
  const id = shortApprovalId(approval.id);
  const seconds = Math.round((approval.expiresAtMs - approval.createdAtMs) / 1000);
  return [
    `Exec approval needed (${id}): agent ${request.agentId} wants to run${request.nodeName ? ` on node ${request.nodeName}` : ""}`,
    request.command,
    `in ${request.cwd} (${request.reason}).`,
    `Reply /approve ${id} allow-once, /approve ${id} allow-always or /approve ${id} deny within ${seconds} s; no answer denies it.`,
  ].join("\n");
}

/** The event payload of a request (OpenClaw's shape). */
export function requestedPayload(approval: PendingExecApproval) {
  return {
    id: approval.id,
    request: approval.request,
    createdAtMs: approval.createdAtMs,
    expiresAtMs: approval.expiresAtMs,
  };
}

/** The `exec.approval.resolved` payload: a timeout or withdrawal is a deny with its reason. */
export function resolvedPayload(ended: ApprovalEnded) {
  const { outcome } = ended;
  const answered = outcome.decision !== "timeout" && outcome.decision !== "aborted";
  return {
    id: ended.approval.id,
    decision: answered ? outcome.decision : "deny",
    resolvedBy: answered && outcome.resolvedBy ? outcome.resolvedBy : null,
    ...(answered ? {} : { reason: outcome.decision }),
    ts: ended.ts,
    request: ended.approval.request,
  };
}

/** Builds the hub (see the file comment). */
export function createExecApprovalHub(params: ExecApprovalHubParams): ExecApprovalHub {
  const { logger } = params;
  const tell = (sessionKey: string | undefined, text: string, what: string) => {
    const host = params.channels();
    const target = chatOf(params.stores(), sessionKey);
    if (!host || !target) return;
    host
      .send({ ...target, message: text })
      .then((sent) => {
        if (!sent.ok)
          logger.warn({ sessionKey, error: sent.error }, `exec approval ${what} not delivered`);
      })
      .catch((err: unknown) => {
        logger.warn({ sessionKey, error: String(err) }, `exec approval ${what} not delivered`);
      });
  };
  const queue = new ExecApprovalQueue({
    now: params.now,
    ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
    listener: {
      requested: (approval) => {
        logger.info(
          {
            id: approval.id,
            agentId: approval.request.agentId,
            sessionKey: approval.request.sessionKey,
          },
          "exec approval requested",
        );
        params.broadcast("exec.approval.requested", requestedPayload(approval));
        tell(approval.request.sessionKey, requestAnnouncement(approval), "request");
      },
      resolved: (ended) => {
        const how = describeOutcome(ended.outcome);
        logger.info({ id: ended.approval.id }, `exec approval ${how}`);
        params.broadcast("exec.approval.resolved", resolvedPayload(ended));
        const by = "resolvedBy" in ended.outcome ? ended.outcome.resolvedBy : undefined;
        if (ended.outcome.decision === "aborted" || by?.startsWith(CHAT_RESOLVER_PREFIX)) return;
        const id = shortApprovalId(ended.approval.id);
        tell(ended.approval.request.sessionKey, `Exec approval ${id} ${how}.`, "outcome");
      },
    },
  });
  return { queue, file: new ApprovalsFileStore({ stateDir: params.stateDir, now: params.now }) };
}
