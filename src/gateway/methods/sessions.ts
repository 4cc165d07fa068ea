// sessions.list / preview / patch / reset / delete / compact over the gateway's session stores.
// Every change emits `sessions.changed`.
import type { SessionsPatchParams } from "../../protocol/gateway/index.js";
import { DetailCodes, ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { normalizeAgentId } from "../../routing/index.js";
import {
  currentBranch,
  isMessageEntry,
  messageText,
  type SessionEntry,
} from "../../sessions/index.js";
import { fail, type MethodCall, type MethodHandler, ok } from "../context.js";
import { resolveTarget } from "./shared.js";

type Target = { agentId: string; sessionKey: string };

function existing(call: MethodCall<{ key: string }>): Target | { error: ReturnType<typeof fail> } {
  const target = resolveTarget(call.core.live.resolved, { sessionKey: call.params.key });
  if ("error" in target) return { error: target.error };
  if (!call.core.runtime.stores.forAgent(target.agentId).has(target.sessionKey)) {
    return {
      error: fail(
        gatewayError(ErrorCodes.INVALID_REQUEST, `no session ${target.sessionKey}`, {
          details: { code: DetailCodes.SESSION_NOT_FOUND, key: target.sessionKey },
        }),
      ),
    };
  }
  return target;
}

function announce(call: MethodCall<unknown>, sessionKey: string, reason: string): void {
  call.core.broadcast("sessions.changed", { sessionKey, reason, ts: call.core.now() });
}

function row(key: string, entry: Readonly<SessionEntry>, agentId: string) {
  return { key, agentId, ...entry };
}

function list(
  call: MethodCall<{
    limit?: number;
    activeMinutes?: number;
    agentId?: string;
    label?: string;
    search?: string;
  }>,
) {
  const { core, params } = call;
  // The resolved roster, the requested id normalized as its ids are ("My Agent" → my-agent).
  const wanted = params.agentId === undefined ? undefined : normalizeAgentId(params.agentId);
  const agents = core.live.resolved.agents.filter(
    (agent) => wanted === undefined || agent.id === wanted,
  );
  const search = params.search?.toLowerCase();
  let rows = agents.flatMap((agent) =>
    core.runtime.stores
      .forAgent(agent.id)
      .list({
        agentId: agent.id,
        ...(params.activeMinutes ? { activeMinutes: params.activeMinutes } : {}),
      })
      .map((item) => row(item.key, item.entry, agent.id)),
  );
  if (params.label !== undefined) rows = rows.filter((item) => item.label === params.label);
  if (search)
    rows = rows.filter((item) => `${item.key} ${item.label ?? ""}`.toLowerCase().includes(search));
  rows.sort((a, b) => b.updatedAt - a.updatedAt);
  const sessions = params.limit ? rows.slice(0, params.limit) : rows;
  return ok({ ts: core.now(), count: sessions.length, sessions });
}

function preview(call: MethodCall<{ keys: string[]; limit?: number; maxChars?: number }>) {
  const { core, params } = call;
  const limit = params.limit ?? 12;
  const maxChars = params.maxChars ?? 240;
  const previews = params.keys.map((key) => {
    const target = resolveTarget(core.live.resolved, { sessionKey: key });
    if ("error" in target) return { key, status: "missing", items: [] };
    const store = core.runtime.stores.forAgent(target.agentId);
    if (!store.has(target.sessionKey)) return { key, status: "missing", items: [] };
    const read = store.readTranscript(target.sessionKey);
    const items = (read ? currentBranch(read.entries) : [])
      .filter(isMessageEntry)
      .slice(-limit)
      .map((entry) => ({
        role: entry.message.role,
        text: messageText(entry.message).slice(0, maxChars),
      }));
    return { key, status: items.length ? "ok" : "empty", items };
  });
  return ok({ ts: core.now(), previews });
}

function patch(call: MethodCall<SessionsPatchParams>) {
  const target = existing(call);
  if ("error" in target) return target.error;
  const { key: _key, ...fields } = call.params;
  const changes: Partial<SessionEntry> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = name === "model" ? "modelOverride" : name;
    changes[field] = value === null ? undefined : value;
  }
  const entry = call.core.runtime.stores
    .forAgent(target.agentId)
    .annotate(target.sessionKey, changes);
  announce(call, target.sessionKey, "patch");
  return ok({ ok: true, key: target.sessionKey, entry });
}

function reset(call: MethodCall<{ key: string }>) {
  const target = existing(call);
  if ("error" in target) return target.error;
  if (call.core.runtime.lanes.isBusy(target.sessionKey)) call.core.runs.abort(target.sessionKey);
  const done = call.core.runtime.stores.forAgent(target.agentId).reset(target.sessionKey);
  announce(call, target.sessionKey, "reset");
  return ok({
    ok: true,
    key: target.sessionKey,
    entry: done.entry,
    archived: done.archivedTranscript,
  });
}

function remove(call: MethodCall<{ key: string }>) {
  const target = existing(call);
  if ("error" in target) return target.error;
  call.core.runs.abort(target.sessionKey);
  const done = call.core.runtime.stores.forAgent(target.agentId).delete(target.sessionKey);
  announce(call, target.sessionKey, "delete");
  return ok({
    ok: true,
    key: target.sessionKey,
    deleted: done !== undefined,
    archived: done?.archivedTranscript,
  });
}

async function compact(call: MethodCall<{ key: string }>) {
  const target = existing(call);
  if ("error" in target) return target.error;
  const result = await call.core.runtime.compact(target);
  if (result.ok) {
    announce(call, target.sessionKey, "compact");
    return ok({ ok: true, key: target.sessionKey, compacted: true, detail: result.detail });
  }
  return ok({ ok: true, key: target.sessionKey, compacted: false, reason: result.error });
}

/** The sessions method group. */
export const sessionMethods: Record<string, MethodHandler> = {
  "sessions.list": list,
  "sessions.preview": preview,
  "sessions.patch": patch,
  "sessions.reset": reset,
  "sessions.delete": remove,
  "sessions.compact": compact,
};
