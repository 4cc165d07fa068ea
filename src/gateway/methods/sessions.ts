// sessions.list (sessions-list.ts) / preview / patch / reset / delete / compact over the gateway's session stores.
// Every change emits `sessions.changed`, sent only to connections that called `sessions.subscribe`
// (until `sessions.unsubscribe` or their close), as OpenClaw does.

import { lookupAgent } from "../../config/resolve.js";
import { DetailCodes, ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { elevatedAvailability } from "../../runtime/approvals/index.js";
import {
  checkAuthProfileChoice,
  keptAuthProfileOverride,
} from "../../runtime/models/session-auth-profile.js";
import { checkModelChoice, resolveSessionModelChain } from "../../runtime/models/session-model.js";
import {
  currentBranch,
  isMessageEntry,
  messageText,
  type SessionEntry,
} from "../../sessions/index.js";
import { type CallOf, defineMethod, fail, type MethodCall, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { listSessionsPage } from "./sessions-list.js";
import { resolveTarget } from "./shared.js";

type Target = { agentId: string; sessionKey: string };
/** What the writing methods use: find the session, change it, announce it. */
type WriteDeps = Pick<MethodDeps, "config" | "stores" | "broadcast" | "now">;
const WRITE_USES = ["config", "stores", "broadcast", "now"] as const;

function existing(
  call: MethodCall<{ key: string }>,
  deps: Pick<MethodDeps, "config" | "stores">,
): Target | { error: ReturnType<typeof fail> } {
  const target = resolveTarget(deps.config(), { sessionKey: call.params.key });
  if ("error" in target) return { error: target.error };
  if (!deps.stores.forAgent(target.agentId).has(target.sessionKey)) {
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

function announce(deps: WriteDeps, sessionKey: string, reason: string): void {
  deps.broadcast("sessions.changed", { sessionKey, reason, ts: deps.now() });
}

function list(call: CallOf<"sessions.list">, deps: Pick<MethodDeps, "config" | "stores" | "now">) {
  return ok(listSessionsPage(call.params, deps));
}

async function preview(
  call: CallOf<"sessions.preview">,
  deps: Pick<MethodDeps, "config" | "stores" | "now">,
) {
  const { params } = call;
  const limit = params.limit ?? 12;
  const maxChars = params.maxChars ?? 240;
  const previews = await Promise.all(
    params.keys.map(async (key) => {
      const target = resolveTarget(deps.config(), { sessionKey: key });
      if ("error" in target) return { key, status: "missing", items: [] };
      const store = deps.stores.forAgent(target.agentId);
      if (!store.has(target.sessionKey)) return { key, status: "missing", items: [] };
      const read = await store.readTranscriptAsync(target.sessionKey);
      const items = (read ? currentBranch(read.entries) : [])
        .filter(isMessageEntry)
        .slice(-limit)
        .map((entry) => ({
          role: entry.message.role,
          text: messageText(entry.message).slice(0, maxChars),
        }));
      return { key, status: items.length ? "ok" : "empty", items };
    }),
  );
  return ok({ ts: deps.now(), previews });
}

function patch(call: CallOf<"sessions.patch">, deps: WriteDeps & Pick<MethodDeps, "env">) {
  const target = existing(call, deps);
  if ("error" in target) return target.error;
  const { key: _key, model, authProfileOverride, ...fields } = call.params;
  const changes: Partial<SessionEntry> = {};
  for (const [name, value] of Object.entries(fields)) {
    changes[name] = value === null ? undefined : value;
  }
  const cfg = deps.config();
  const scope = { cfg, agentId: target.agentId, env: deps.env };
  if (typeof fields.elevatedLevel === "string" && fields.elevatedLevel !== "off") {
    // A level no run would honour is refused, not stored and ignored.
    const available = elevatedAvailability(cfg, target.agentId);
    if (!available.ok) {
      return fail(
        gatewayError(ErrorCodes.INVALID_REQUEST, `invalid elevatedLevel: ${available.reason}`),
      );
    }
  }
  if (model !== undefined) {
    // The model a run will use is checked now (known, allowed); a refused one changes nothing.
    const choice = model === null ? undefined : checkModelChoice(scope, model);
    if (choice && !choice.ok) {
      return fail(gatewayError(ErrorCodes.INVALID_REQUEST, `invalid model: ${choice.error}`));
    }
    changes.providerOverride = choice?.ref.provider;
    changes.modelOverride = choice?.ref.model;
  }
  const store = deps.stores.forAgent(target.agentId);
  if (model !== undefined || authProfileOverride !== undefined) {
    // The pin belongs to the provider of the model the session runs after this patch.
    const current = store.get(target.sessionKey);
    const after = { ...current, ...changes } as SessionEntry;
    const chain = resolveSessionModelChain(scope, after);
    const provider = chain.ok ? chain.chain.primary?.provider : undefined;
    const profiles = {
      agentDir: lookupAgent(cfg, target.agentId).agentDir,
      cfg: cfg.config,
    };
    if (authProfileOverride) {
      const pick = provider
        ? checkAuthProfileChoice(profiles, { provider, profileId: authProfileOverride })
        : { ok: false as const, error: "the session has no usable model" };
      if (!pick.ok) {
        return fail(
          gatewayError(ErrorCodes.INVALID_REQUEST, `invalid authProfileOverride: ${pick.error}`),
        );
      }
      changes.authProfileOverride = pick.profileId;
    } else if (authProfileOverride === null || !provider) {
      changes.authProfileOverride = undefined;
    } else {
      // A model change keeps the pin only within its provider.
      const kept = keptAuthProfileOverride(profiles, {
        current: current?.authProfileOverride,
        provider,
      });
      changes.authProfileOverride = kept;
    }
  }
  const entry = store.annotate(target.sessionKey, changes);
  announce(deps, target.sessionKey, "patch");
  return ok({ ok: true, key: target.sessionKey, entry });
}

function reset(
  call: CallOf<"sessions.reset">,
  deps: WriteDeps & Pick<MethodDeps, "lanes" | "runs">,
) {
  const target = existing(call, deps);
  if ("error" in target) return target.error;
  if (deps.lanes.isBusy(target.sessionKey)) deps.runs.abort(target.sessionKey);
  const done = deps.stores.forAgent(target.agentId).reset(target.sessionKey);
  announce(deps, target.sessionKey, "reset");
  return ok({
    ok: true,
    key: target.sessionKey,
    entry: done.entry,
    archived: done.archivedTranscript,
  });
}

function remove(call: CallOf<"sessions.delete">, deps: WriteDeps & Pick<MethodDeps, "runs">) {
  const target = existing(call, deps);
  if ("error" in target) return target.error;
  deps.runs.abort(target.sessionKey);
  const done = deps.stores.forAgent(target.agentId).delete(target.sessionKey);
  announce(deps, target.sessionKey, "delete");
  return ok({
    ok: true,
    key: target.sessionKey,
    deleted: done !== undefined,
    archived: done?.archivedTranscript,
  });
}

async function compact(
  call: CallOf<"sessions.compact">,
  deps: WriteDeps & Pick<MethodDeps, "compact">,
) {
  const target = existing(call, deps);
  if ("error" in target) return target.error;
  const result = await deps.compact(target);
  if (result.ok) {
    announce(deps, target.sessionKey, "compact");
    return ok({ ok: true, key: target.sessionKey, compacted: true, detail: result.detail });
  }
  return ok({ ok: true, key: target.sessionKey, compacted: false, reason: result.error });
}

/** The subscription-only events a `sessions.subscribe` call asks for. */
const SESSION_EVENTS = ["sessions.changed"] as const;

function subscribe(
  call: CallOf<"sessions.subscribe">,
  deps: Pick<MethodDeps, "subscriptions">,
  subscribed: boolean,
) {
  for (const event of SESSION_EVENTS) {
    if (subscribed) deps.subscriptions.subscribe(call.client.connId, event);
    else deps.subscriptions.unsubscribe(call.client.connId, event);
  }
  return ok({ subscribed });
}

/** The sessions method group: reads need operator.read, changes operator.write. */
export const sessionMethods = [
  defineMethod({
    name: "sessions.list",
    scope: "operator.read",
    uses: ["config", "stores", "now"],
    handler: list,
  }),
  defineMethod({
    name: "sessions.preview",
    scope: "operator.read",
    uses: ["config", "stores", "now"],
    handler: preview,
  }),
  defineMethod({
    name: "sessions.subscribe",
    scope: "operator.read",
    uses: ["subscriptions"],
    handler: (call, deps) => subscribe(call, deps, true),
  }),
  defineMethod({
    name: "sessions.unsubscribe",
    scope: "operator.read",
    uses: ["subscriptions"],
    handler: (call, deps) => subscribe(call, deps, false),
  }),
  defineMethod({
    name: "sessions.patch",
    scope: "operator.write",
    uses: [...WRITE_USES, "env"],
    handler: patch,
  }),
  defineMethod({
    name: "sessions.reset",
    scope: "operator.write",
    uses: [...WRITE_USES, "lanes", "runs"],
    handler: reset,
  }),
  defineMethod({
    name: "sessions.delete",
    scope: "operator.write",
    uses: [...WRITE_USES, "runs"],
    handler: remove,
  }),
  defineMethod({
    name: "sessions.compact",
    scope: "operator.write",
    uses: [...WRITE_USES, "compact"],
    handler: compact,
  }),
];
