// The cron methods, OpenClaw's names and scopes: `cron.list`, `cron.status`, `cron.runs` (operator.read)
// and `cron.add`, `cron.update`, `cron.remove`, `cron.run` (operator.admin). Jobs live in the cron
// service (src/cron/service.ts); an unknown job, agent or model is INVALID_REQUEST naming it, an
// unusable store UNAVAILABLE naming its path.
import { findAgent } from "../../config/index.js";
import type { CronResult } from "../../cron/service.js";
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { checkModelChoice } from "../../runtime/models/session-model.js";
import { defineMethod, fail, type MethodResult, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

function answer<T>(result: CronResult<T>): MethodResult {
  if (result.ok) return ok(result.value);
  const code = result.code === "unavailable" ? ErrorCodes.UNAVAILABLE : ErrorCodes.INVALID_REQUEST;
  return fail(gatewayError(code, result.error));
}

function jobIdOf(params: { id?: string; jobId?: string }): string | MethodResult {
  const id = params.jobId ?? params.id;
  return (
    id ?? fail(gatewayError(ErrorCodes.INVALID_REQUEST, 'a job "id" (or "jobId") is required'))
  );
}

/** Why the agent or model a job names cannot run, as an error answer; undefined when both can. */
function refusedTarget(
  deps: Pick<MethodDeps, "config" | "env">,
  fields: { agentId?: string | null; payload?: { kind: string; model?: string } },
): MethodResult | undefined {
  const cfg = deps.config();
  if (fields.agentId && !findAgent(cfg, fields.agentId)) {
    return fail(
      gatewayError(
        ErrorCodes.INVALID_REQUEST,
        `unknown agentId "${fields.agentId}" (see pincer agents list)`,
      ),
    );
  }
  const model = fields.payload?.model;
  if (!model) return undefined;
  const agentId = (fields.agentId && findAgent(cfg, fields.agentId)?.id) || cfg.defaultAgentId;
  const choice = checkModelChoice({ cfg, agentId, env: deps.env }, model);
  return choice.ok
    ? undefined
    : fail(
        gatewayError(
          ErrorCodes.INVALID_REQUEST,
          `invalid payload.model "${model}": ${choice.error}`,
        ),
      );
}

/** The cron method group. */
export const cronMethods = [
  defineMethod({
    name: "cron.list",
    scope: "operator.read",
    uses: ["cron"],
    handler: ({ params }, { cron }) => ok(cron.list(params)),
  }),
  defineMethod({
    name: "cron.status",
    scope: "operator.read",
    uses: ["cron"],
    handler: (_call, { cron }) => ok(cron.status()),
  }),
  defineMethod({
    name: "cron.add",
    scope: "operator.admin",
    uses: ["cron", "config", "env"],
    handler: ({ params }, deps) => refusedTarget(deps, params) ?? answer(deps.cron.add(params)),
  }),
  defineMethod({
    name: "cron.update",
    scope: "operator.admin",
    uses: ["cron", "config", "env"],
    handler: ({ params }, deps) => {
      const id = jobIdOf(params);
      if (typeof id !== "string") return id;
      const job = deps.cron.get(id);
      const agentId = params.patch.agentId === undefined ? job?.agentId : params.patch.agentId;
      return (
        refusedTarget(deps, {
          agentId,
          ...(params.patch.payload ? { payload: params.patch.payload } : {}),
        }) ?? answer(deps.cron.update(id, params.patch))
      );
    },
  }),
  defineMethod({
    name: "cron.remove",
    scope: "operator.admin",
    uses: ["cron"],
    handler: ({ params }, { cron }) => {
      const id = jobIdOf(params);
      return typeof id === "string" ? answer(cron.remove(id)) : id;
    },
  }),
  defineMethod({
    name: "cron.run",
    scope: "operator.admin",
    uses: ["cron"],
    handler: ({ params }, { cron }) => {
      const id = jobIdOf(params);
      return typeof id === "string" ? answer(cron.run(id, params.mode ?? "force")) : id;
    },
  }),
  defineMethod({
    name: "cron.runs",
    scope: "operator.read",
    uses: ["cron"],
    handler: ({ params }, { cron }) => answer(cron.runs(params)),
  }),
];
