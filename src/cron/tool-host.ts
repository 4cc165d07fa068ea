// The `cron` tool's gateway side: each call goes through the same bound `cron.*` method a client
// calls (params validated against the same schema, the same checks), confined to the calling
// agent's own jobs (list shows them, update/remove/run/runs refuse another agent's). Webhook delivery
// is an operator's choice: the tool can neither add one nor change a job that has one (an agent talked
// into it would POST its runs to any URL the gateway can reach). `wake` queues a
// system event into the agent's main session and, with mode "now", starts its heartbeat (a busy
// session keeps the event for the next beat).
import type { ResolvedConfig } from "../config/index.js";
import type { MethodCall } from "../gateway/methods/method.js";
import type { BoundMethod } from "../gateway/methods/method-table.js";
import type { SystemEventQueue } from "../gateway/system-events.js";
import { formatIssues, validateSchema } from "../gateway/ws/schema-issues.js";
import type { Logger } from "../lib/logger.js";
import { buildAgentMainSessionKey } from "../routing/index.js";
import type { CronToolAnswer, CronToolHost, CronToolMethod } from "../runtime/tools/cron-tool.js";
import { jobAgentId } from "./executor.js";
import type { CronService } from "./service.js";
import type { CronJob } from "./types.js";

/** Inputs of {@link createCronToolHosts}. */
export interface CronToolHostsParams {
  methods: () => ReadonlyMap<string, BoundMethod>;
  cron: () => CronService;
  config: () => ResolvedConfig;
  systemEvents: SystemEventQueue;
  /** Runs the agent's heartbeat now (it takes the queued events). */
  beat: (agentId: string) => Promise<unknown>;
  logger: Logger;
}

const TOOL_CLIENT: MethodCall["client"] = {
  connId: "cron-tool",
  role: "operator",
  scopes: ["operator.admin"],
  clientId: "cron-tool",
  mode: "backend",
  remoteAddress: "local",
};

const WEBHOOK_REFUSAL =
  "webhook delivery is set by an operator (cron.add / cron.update over the gateway, or pincer cron add --webhook), not by the cron tool";

/** Why the tool may not make this call to a webhook job (or make one), or undefined. */
function webhookRefusal(
  args: Record<string, unknown>,
  job: CronJob | undefined,
): string | undefined {
  const delivery = (args.delivery ??
    (args.patch as { delivery?: unknown } | undefined)?.delivery) as { mode?: unknown } | undefined;
  if (delivery?.mode === "webhook") return WEBHOOK_REFUSAL;
  const changes = args.patch !== undefined;
  if (changes && (job?.delivery?.mode === "webhook" || job?.notify === true))
    return WEBHOOK_REFUSAL;
  return undefined;
}

function errorOf(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : JSON.stringify(error);
}

/** One cron tool host per agent, over the gateway's bound methods. */
export function createCronToolHosts(
  params: CronToolHostsParams,
): (agentId: string) => CronToolHost {
  const owns = (agentId: string, job: CronJob | undefined) =>
    !job || jobAgentId(params.config(), job) === agentId;

  const invoke = async (
    method: CronToolMethod,
    args: Record<string, unknown>,
  ): Promise<CronToolAnswer> => {
    const bound = params.methods().get(method);
    if (!bound) return { ok: false, error: `${method} is not served` };
    const issues = validateSchema(bound.method.params, args);
    if (issues.length > 0)
      return { ok: false, error: `invalid ${method} params: ${formatIssues(issues)}` };
    const result = await bound.handle({ method, params: args, client: TOOL_CLIENT, ack: () => {} });
    return result.ok
      ? { ok: true, payload: result.payload }
      : { ok: false, error: errorOf(result.error) };
  };

  return (agentId) => ({
    async call(method, args) {
      const id = typeof args.jobId === "string" ? args.jobId : undefined;
      const job = id ? params.cron().get(id) : undefined;
      if (id && !owns(agentId, job))
        return { ok: false, error: `job "${id}" belongs to another agent` };
      const refused =
        method === "cron.add" || method === "cron.update" ? webhookRefusal(args, job) : undefined;
      if (refused) return { ok: false, error: refused };
      const answer = await invoke(
        method,
        method === "cron.runs" ? { ...args, scope: "job" } : args,
      );
      if (method !== "cron.list" || !answer.ok) return answer;
      const page = answer.payload as { jobs: CronJob[] };
      const jobs = page.jobs.filter((job) => owns(agentId, job));
      return { ok: true, payload: { ...page, jobs, total: jobs.length } };
    },
    async wake({ text, mode }) {
      const cfg = params.config();
      const mainKey = buildAgentMainSessionKey({ agentId, mainKey: cfg.config.session?.mainKey });
      params.systemEvents.enqueue(mainKey, text);
      if (mode === "now") {
        params.beat(agentId).catch((err: unknown) => {
          params.logger.warn({ agentId, error: String(err) }, "cron wake: the heartbeat failed");
        });
      }
      return { ok: true, payload: { ok: true, queued: true, mode, sessionKey: mainKey } };
    },
  });
}
