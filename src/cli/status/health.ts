// `pincer health [--json] [--url] [--token] [--password] [--timeout MS]`: the gateway's `health`
// method, as a short summary (uptime, agents and their session counts, runs) or the raw payload.
import type { InputOf } from "../command.js";
import { type CliContext, ExitCode, printJson, printLine, style } from "../command-context.js";
import { connectForCli, requestFailure, resolveGatewayTarget } from "../gateway-client-options.js";
import { formatDuration } from "../time-format.js";
import type { healthOptions } from "./commands.js";

interface HealthPayload {
  ok?: boolean;
  durationMs?: number;
  uptimeMs?: number;
  defaultAgentId?: string;
  agents?: Array<{ agentId: string; isDefault?: boolean; sessions?: { count?: number } }>;
  runs?: { active?: number; queued?: number };
  /** E.g. a config reload the gateway rejected (the file's issues are in `config`). */
  warnings?: string[];
}

/** Formats the health payload for humans (one line per fact). */
export function formatHealth(params: {
  url: string;
  protocol: number;
  health: HealthPayload;
}): string[] {
  const { health } = params;
  const uptime = formatDuration(Math.max(1000, health.uptimeMs ?? 0));
  const lines = [
    `gateway ${params.url}: ${health.ok === false ? "not ok" : "ok"} (protocol ${params.protocol}, up ${uptime}, answered in ${health.durationMs ?? 0} ms)`,
  ];
  for (const agent of health.agents ?? []) {
    const mark = agent.isDefault ? " (default)" : "";
    lines.push(`agent ${agent.agentId}${mark}: ${agent.sessions?.count ?? 0} sessions`);
  }
  lines.push(`runs: ${health.runs?.active ?? 0} active, ${health.runs?.queued ?? 0} queued`);
  for (const warning of health.warnings ?? []) lines.push(`warning: ${warning}`);
  return lines;
}

/** Calls `health` and prints a summary (or the payload with --json); exit 1 when not ok. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof healthOptions>,
): Promise<number> {
  const target = resolveGatewayTarget(ctx, opts);
  const client = await connectForCli(ctx, target);
  let health: HealthPayload;
  try {
    health = await client.request<HealthPayload>("health");
  } catch (err) {
    throw requestFailure(err, "health");
  } finally {
    await client.close();
  }
  if (opts.json) printJson(ctx, health);
  else {
    const s = style(ctx);
    const [first = "", ...rest] = formatHealth({
      url: target.url,
      protocol: client.hello.protocol,
      health,
    });
    printLine(ctx, health.ok === false ? s.red(first) : s.green(first));
    for (const line of rest) printLine(ctx, line);
  }
  return health.ok === false ? ExitCode.failure : ExitCode.ok;
}
