// Root and read-only methods: health, status, system-presence, system-event, agent.identity.get,
// models.list (models-list.ts), logs.tail (agents.list is in agents-roster.ts).
import { findAgent } from "../../config/index.js";
import { type CallOf, defineMethod, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { modelsListMethod } from "./models-list.js";
import { resolveTarget } from "./shared.js";

function systemEvent(
  call: CallOf<"system-event">,
  deps: Pick<MethodDeps, "presence" | "presenceChanged">,
) {
  const { params, client } = call;
  const { text, ...fields } = params;
  deps.presence.beacon({
    ...fields,
    ...(text ? { text } : {}),
    ip: fields.ip ?? client.remoteAddress,
  });
  deps.presenceChanged();
  return ok({ ok: true });
}

/** One row per channel for `status`: accounts configured and running, from the channel host. */
async function channelRows(channels: MethodDeps["channels"]) {
  const host = channels.host;
  if (!host) return [];
  const snapshot = await host.status();
  return snapshot.channelOrder.map((id) => ({
    id,
    label: snapshot.channelLabels[id] ?? id,
    ...snapshot.channels[id],
    connected: (snapshot.channelAccounts[id] ?? []).filter((account) => account.connected).length,
  }));
}

async function status(
  _call: CallOf<"status">,
  deps: Pick<
    MethodDeps,
    "config" | "live" | "stores" | "lanes" | "now" | "gateway" | "stateDir" | "channels"
  >,
) {
  const { gateway, lanes } = deps;
  const agents = deps.config().agents.map((agent) => ({
    id: agent.id,
    name: agent.name,
    isDefault: agent.isDefault,
    model: agent.model,
    workspace: agent.workspace,
    sessions: deps.stores.forAgent(agent.id).size,
  }));
  const cluster = await gateway.cluster();
  return ok({
    ts: deps.now(),
    gateway: {
      version: gateway.version,
      pid: process.pid,
      uptimeMs: deps.now() - gateway.startedAt,
      bootId: gateway.bootId,
      authMode: gateway.authMode(),
      connections: gateway.connectionCount(),
    },
    // Which config runs, and whether the file still matches it (a rejected reload shows here).
    config: { exists: deps.live.loaded.exists, ...deps.live.status() },
    stateDir: deps.stateDir,
    agents,
    runs: {
      active: lanes.activeCount,
      queued: lanes.queuedCount,
      maxConcurrent: lanes.maxConcurrent,
    },
    // Runs on workers: queue depth per partition and the workers seen lately.
    ...(cluster ? { cluster: { queue: cluster } } : {}),
    channels: await channelRows(deps.channels),
    plugins: gateway.plugins.map((plugin) => ({
      id: plugin.id,
      status: plugin.status,
      ...(plugin.error ? { error: plugin.error } : {}),
    })),
  });
}

function identity(call: CallOf<"agent.identity.get">, deps: Pick<MethodDeps, "config">) {
  const cfg = deps.config();
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

function logsTail(call: CallOf<"logs.tail">, deps: Pick<MethodDeps, "logs">) {
  const { cursor, limit = 500, maxBytes = 250_000 } = call.params;
  const tail = deps.logs.tail({
    ...(cursor !== undefined ? { cursor } : {}),
    limit,
    maxBytes,
  });
  return ok({ file: "memory:gateway", ...tail });
}

/** The system method group. */
export const systemMethods = [
  defineMethod({
    name: "health",
    scope: "operator.read",
    uses: ["health"],
    handler: (_call, deps) => ok(deps.health()),
  }),
  defineMethod({
    name: "status",
    scope: "operator.read",
    uses: ["config", "live", "stores", "lanes", "now", "gateway", "stateDir", "channels"],
    handler: status,
  }),
  defineMethod({
    name: "system-presence",
    scope: "operator.read",
    uses: ["presence"],
    handler: (_call, deps) => ok(deps.presence.list()),
  }),
  defineMethod({
    name: "system-event",
    scope: "operator.write",
    uses: ["presence", "presenceChanged"],
    handler: systemEvent,
  }),
  defineMethod({
    name: "agent.identity.get",
    scope: "operator.read",
    uses: ["config"],
    handler: identity,
  }),
  modelsListMethod,
  defineMethod({ name: "logs.tail", scope: "operator.read", uses: ["logs"], handler: logsTail }),
];
