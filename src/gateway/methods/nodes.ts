// Node hosts over the gateway (OpenClaw's names): `node.list` / `node.describe` (operator.read) show
// the paired node devices and the connected nodes with their declared commands; `node.invoke`
// (operator.write) runs one command the node declared and answers `{ok, nodeId, command, payload,
// payloadJSON}` or an error value (not connected, undeclared command, timeout, node disconnected,
// the node's own refusal). The node-role methods: `node.invoke.result` (a node's answer) and
// `node.event` (logged).
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { approvedRoles } from "../devices/index.js";
import type { PairedDevice } from "../devices/types.js";
import type { NodeSession } from "../nodes/node-registry.js";
import { type CallOf, type ClientInfo, defineMethod, fail, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

type Deps = Pick<MethodDeps, "nodes" | "devices" | "now" | "logger" | "config">;
const USES = ["nodes", "devices", "now", "logger", "config"] as const;

/** One row of `node.list`: what is known of a node from its pairing and its live connection. */
export interface NodeListEntry extends Omit<NodeSession, "connId" | "connectedAtMs"> {
  paired: boolean;
  connected: boolean;
  connectedAtMs?: number;
}

function entryOf(
  session: NodeSession | undefined,
  device: PairedDevice | undefined,
): NodeListEntry {
  const nodeId = session?.nodeId ?? device?.deviceId ?? "";
  const displayName = session?.displayName ?? device?.displayName;
  const platform = session?.platform ?? device?.platform;
  return {
    nodeId,
    ...(displayName ? { displayName } : {}),
    ...(platform ? { platform } : {}),
    ...(session?.version ? { version: session.version } : {}),
    ...(session?.deviceFamily ? { deviceFamily: session.deviceFamily } : {}),
    ...(session?.remoteIp ? { remoteIp: session.remoteIp } : {}),
    caps: session?.caps ?? [],
    commands: session?.commands ?? [],
    paired: device !== undefined,
    connected: session !== undefined,
    ...(session ? { connectedAtMs: session.connectedAtMs } : {}),
  };
}

/** Paired node devices (not revoked) and connected nodes, one row per node id. */
async function knownNodes(deps: Deps): Promise<NodeListEntry[]> {
  const paired = (await deps.devices.store.listPaired()).filter(
    (d) => d.revokedAt === undefined && approvedRoles(d).includes("node"),
  );
  const byId = new Map(paired.map((d) => [d.deviceId, d]));
  const connected = deps.nodes.listConnected();
  const rows = connected.map((session) => entryOf(session, byId.get(session.nodeId)));
  const live = new Set(connected.map((s) => s.nodeId));
  for (const device of paired)
    if (!live.has(device.deviceId)) rows.push(entryOf(undefined, device));
  return rows;
}

async function list(_call: CallOf<"node.list">, deps: Deps) {
  return ok({ ts: deps.now(), nodes: await knownNodes(deps) });
}

async function describe(call: CallOf<"node.describe">, deps: Deps) {
  const node = (await knownNodes(deps)).find((n) => n.nodeId === call.params.nodeId);
  if (!node) return fail(gatewayError(ErrorCodes.INVALID_REQUEST, "unknown nodeId"));
  return ok({ ts: deps.now(), ...node });
}

async function invoke(call: CallOf<"node.invoke">, deps: Deps) {
  const { nodeId, command } = call.params;
  const session = deps.nodes.get(nodeId);
  if (!session) {
    return fail(
      gatewayError(ErrorCodes.UNAVAILABLE, "node not connected", {
        details: { code: "NOT_CONNECTED", nodeId },
      }),
    );
  }
  if (!session.commands.includes(command)) {
    return fail(
      gatewayError(
        ErrorCodes.INVALID_REQUEST,
        `node command not allowed: the node (platform: ${session.platform ?? "unknown"}) does not support "${command}"`,
        { details: { reason: "command not declared by node", command, nodeId } },
      ),
    );
  }
  if (deps.config().config.gateway?.nodes?.denyCommands?.includes(command)) {
    return fail(
      gatewayError(
        ErrorCodes.INVALID_REQUEST,
        `node command not allowed: "${command}" is in gateway.nodes.denyCommands`,
        { details: { reason: "command denied by gateway.nodes.denyCommands", command, nodeId } },
      ),
    );
  }
  const outcome = await deps.nodes.invoke({
    nodeId,
    command,
    ...(call.params.params !== undefined ? { params: call.params.params } : {}),
    ...(call.params.timeoutMs !== undefined ? { timeoutMs: call.params.timeoutMs } : {}),
    idempotencyKey: call.params.idempotencyKey,
  });
  if (!outcome.ok) return fail(outcome.error);
  return ok({
    ok: true,
    nodeId,
    command,
    payload: outcome.payload,
    payloadJSON: outcome.payloadJSON,
  });
}

const notANode = (client: ClientInfo) =>
  client.role !== "node"
    ? fail(gatewayError(ErrorCodes.FORBIDDEN, "only a node connection may call this method"))
    : undefined;

function invokeResult(call: CallOf<"node.invoke.result">, deps: Deps) {
  const refused = notANode(call.client);
  if (refused) return refused;
  const matched = deps.nodes.answer(call.client.connId, call.params);
  // A late answer (after a timeout or a reconnect) is dropped, as OpenClaw does: nothing waits for it.
  if (!matched)
    deps.logger.debug({ id: call.params.id }, "node.invoke.result for no pending invoke");
  return ok(matched ? { ok: true } : { ok: true, ignored: true });
}

function nodeEvent(call: CallOf<"node.event">, deps: Deps) {
  const refused = notANode(call.client);
  if (refused) return refused;
  deps.logger.debug({ connId: call.client.connId, event: call.params.event }, "node event");
  return ok({ ok: true });
}

/** The node methods (the node-role ones are callable only by `role: "node"` connections). */
export const nodeMethods = [
  defineMethod({ name: "node.list", scope: "operator.read", uses: USES, handler: list }),
  defineMethod({ name: "node.describe", scope: "operator.read", uses: USES, handler: describe }),
  defineMethod({ name: "node.invoke", scope: "operator.write", uses: USES, handler: invoke }),
  // The operator scope only matters for an operator calling it (refused by the handler).
  defineMethod({
    name: "node.invoke.result",
    scope: "operator.admin",
    uses: USES,
    handler: invokeResult,
  }),
  defineMethod({ name: "node.event", scope: "operator.admin", uses: USES, handler: nodeEvent }),
];
