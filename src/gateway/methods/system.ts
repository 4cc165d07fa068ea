// Root and read-only methods: health, status, system-presence, system-event, agents.list,
// agent.identity.get, models.list, logs.tail.
import { findAgent } from "../../config/index.js";
import type { SystemEventParams } from "../../protocol/gateway/index.js";
import { normalizeMainKey } from "../../routing/index.js";
import { type MethodCall, type MethodHandler, ok } from "../context.js";
import { buildHealth } from "../health.js";
import { resolveTarget } from "./shared.js";

function systemEvent(call: MethodCall<SystemEventParams>) {
  const { core, params, client } = call;
  const { text, ...fields } = params;
  core.presence.beacon({
    ...fields,
    ...(text ? { text } : {}),
    ip: fields.ip ?? client.remoteAddress,
  });
  core.presenceChanged();
  return ok({ ok: true });
}

/** One row per channel for `status`: accounts configured and running, from the channel host. */
async function channelRows(core: MethodCall["core"]) {
  const host = core.channels.host;
  if (!host) return [];
  const snapshot = await host.status();
  return snapshot.channelOrder.map((id) => ({
    id,
    label: snapshot.channelLabels[id] ?? id,
    ...snapshot.channels[id],
    connected: (snapshot.channelAccounts[id] ?? []).filter((account) => account.connected).length,
  }));
}

async function status(call: MethodCall) {
  const { core } = call;
  const agents = core.live.resolved.agents.map((agent) => ({
    id: agent.id,
    name: agent.name,
    isDefault: agent.isDefault,
    model: agent.model,
    workspace: agent.workspace,
    sessions: core.runtime.stores.forAgent(agent.id).size,
  }));
  return ok({
    ts: core.now(),
    gateway: {
      version: core.version,
      pid: process.pid,
      uptimeMs: core.now() - core.startedAt,
      bootId: core.bootId,
      authMode: core.authMode,
      connections: core.connectionCount(),
    },
    // Which config runs, and whether the file still matches it (a rejected reload shows here).
    config: { exists: core.live.loaded.exists, ...core.live.status() },
    stateDir: core.paths.stateDir,
    agents,
    runs: {
      active: core.runtime.lanes.activeCount,
      queued: core.runtime.lanes.queuedCount,
      maxConcurrent: core.runtime.lanes.maxConcurrent,
    },
    channels: await channelRows(core),
  });
}

function identity(call: MethodCall<{ agentId?: string; sessionKey?: string }>) {
  const cfg = call.core.live.resolved;
  const target = resolveTarget(cfg, call.params);
  if ("error" in target) return target.error;
  const entry = findAgent(cfg, target.agentId);
  const configured = entry?.entry.identity;
  const name = configured?.name ?? entry?.name;
  return ok({
    agentId: target.agentId,
    name: name ?? "Assistant",
    nameSource: configured?.name ? "identity" : entry?.name ? "config" : "default",
    avatar: configured?.avatar ?? (name ?? "Assistant").slice(0, 1).toUpperCase(),
    ...(configured?.emoji ? { emoji: configured.emoji } : {}),
  });
}

function logsTail(call: MethodCall<{ cursor?: number; limit?: number; maxBytes?: number }>) {
  const { cursor, limit = 500, maxBytes = 250_000 } = call.params;
  const tail = call.core.logs.tail({
    ...(cursor !== undefined ? { cursor } : {}),
    limit,
    maxBytes,
  });
  return ok({ file: "memory:gateway", ...tail });
}

/** The system method group. */
export const systemMethods: Record<string, MethodHandler> = {
  health: (call) => ok(buildHealth(call.core)),
  status,
  "system-presence": (call) => ok(call.core.presence.list()),
  "system-event": systemEvent,
  "agents.list": (call) => {
    const cfg = call.core.live.resolved;
    const agents = cfg.agents.map((agent) => ({
      id: agent.id,
      ...(agent.name ? { name: agent.name } : {}),
      ...(agent.model ? { model: agent.model } : {}),
      isDefault: agent.isDefault,
      workspace: agent.workspace,
    }));
    return ok({
      defaultId: cfg.defaultAgentId,
      mainKey: normalizeMainKey(cfg.config.session?.mainKey),
      scope: cfg.config.session?.scope ?? "per-sender",
      agents,
    });
  },
  "agent.identity.get": identity,
  "models.list": async (call) => {
    // Lazy: the model catalog pulls in pi-ai, which the gateway does not load at start-up.
    const { listModels } = await import("../../runtime/models/index.js");
    const models = listModels({ cfg: call.core.live.config, env: call.core.env });
    return ok({
      models: models.map((model) => ({
        id: model.id,
        name: model.name,
        provider: model.provider,
        contextWindow: model.contextWindow,
        reasoning: model.reasoning,
        input: model.input,
      })),
    });
  },
  "logs.tail": logsTail,
};
