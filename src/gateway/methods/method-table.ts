// The method table: every method the gateway serves, one object each (method.ts), grouped one file
// per family. The table is the only source of method names and scopes: hello-ok lists it, the
// dispatcher looks methods up in it and `requiredScope` reads it.
import type { MethodScope } from "../../protocol/gateway/index.js";
import { agentMethods } from "./agent.js";
import { agentRosterMethods } from "./agents-roster.js";
import { channelMethods } from "./channels.js";
import { chatMethods } from "./chat.js";
import { configMethods } from "./config.js";
import { cronMethods } from "./cron.js";
import { deviceMethods } from "./devices.js";
import { execApprovalMethods } from "./exec-approvals.js";
import { heartbeatMethods } from "./heartbeats.js";
import type { GatewayMethod, MethodCall, MethodResult } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { nodeMethods } from "./nodes.js";
import { sessionMethods } from "./sessions.js";
import { systemMethods } from "./system.js";
import { usageMethods } from "./usage.js";
import { webLoginMethods } from "./web-login.js";

/** Every method the gateway serves, in the order hello-ok lists them. */
export const GATEWAY_METHODS: readonly GatewayMethod[] = [
  ...systemMethods,
  ...usageMethods,
  ...agentMethods,
  ...agentRosterMethods,
  ...chatMethods,
  ...sessionMethods,
  ...configMethods,
  ...channelMethods,
  ...heartbeatMethods,
  ...cronMethods,
  ...webLoginMethods,
  ...deviceMethods,
  ...execApprovalMethods,
  ...nodeMethods,
];

/** The methods a `role: "node"` connection may call (and only these): a node answers invokes and
 *  reports events; everything else is an operator's. */
export const NODE_ROLE_METHODS: ReadonlySet<string> = new Set(["node.invoke.result", "node.event"]);

const SCOPES: ReadonlyMap<string, MethodScope> = new Map(
  GATEWAY_METHODS.map((method) => [method.name, method.scope]),
);
/** Families that are admin whatever a method says (OpenClaw's rule, also for ones not served). */
const ADMIN_PREFIXES = ["config.", "exec.approvals.", "wizard.", "update."];

/** The scope a method needs: the table's (else the one a plugin method declared); unknown
 *  methods and the admin families need admin. */
export function requiredScope(method: string, declared?: MethodScope): MethodScope {
  if (ADMIN_PREFIXES.some((prefix) => method.startsWith(prefix))) return "operator.admin";
  return SCOPES.get(method) ?? declared ?? "operator.admin";
}

/** A method bound to its dependencies: what the dispatcher calls. */
export interface BoundMethod {
  readonly method: GatewayMethod;
  handle(call: MethodCall<unknown>): Promise<MethodResult> | MethodResult;
}

/** Gives each method exactly the dependencies it lists; keyed by name. */
export function bindMethods(
  methods: readonly GatewayMethod[],
  deps: MethodDeps,
): ReadonlyMap<string, BoundMethod> {
  return new Map(
    methods.map((method) => {
      // Typed as the whole set only for the call: the handler's own type allows just what it listed.
      const picked = Object.fromEntries(
        method.uses.map((key) => [key, deps[key]]),
      ) as unknown as MethodDeps;
      const handle = (call: MethodCall<unknown>) =>
        method.handler(call as MethodCall<never>, picked);
      return [method.name, { method, handle }];
    }),
  );
}
