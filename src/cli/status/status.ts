// `pincer status [--all] [--json] [--url] [--token] [--password] [--timeout MS]`: gateway, agents,
// sessions, channels and models at a glance from a running gateway (`status`, `agents.list`,
// `sessions.list`, `models.list`, `channels.status`). With no gateway it says so and shows what the
// config and the session stores tell locally, without failing.

import { listAgents } from "../../agents/roster.js";
import {
  type ChannelSummary,
  summarizeChannelsStatus,
  summarizeConfiguredChannels,
} from "../../channels/adapterless.js";
import { builtinChannelLoaders } from "../../channels/builtin.js";
import type { ChannelsStatus } from "../../channels/host-status.js";
import type { GatewayClient } from "../../client/index.js";
import { GatewayRequestError } from "../../client/index.js";
import { type ConfigIssue, formatConfigIssues, withCompatKeyIssues } from "../../config/index.js";
import { withModelRefIssues } from "../../runtime/models/model-ref-rules.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  displayPath,
  ExitCode,
  printJson,
  printLine,
  style,
} from "../command-context.js";
import {
  connectForCli,
  describeGatewayError,
  type GatewayTarget,
  resolveGatewayTarget,
} from "../gateway-client-options.js";
import { openAgentStore } from "../sessions/common.js";
import { formatAge, formatDuration } from "../time-format.js";
import { clusterLines, type RemoteCluster } from "./cluster-lines.js";
import type { statusOptions } from "./commands.js";

interface AgentRow {
  id: string;
  isDefault: boolean;
  model?: string;
  workspace: string;
  sessions: number;
}

interface SessionRow {
  key: string;
  agentId: string;
  updatedAt: number;
  model?: string;
}

interface RemoteStatus {
  ts: number;
  gateway: {
    version: string;
    pid: number;
    uptimeMs: number;
    authMode: string;
    connections: number;
  };
  /** `warning`: the file differs from the running config (a rejected reload, an invalid file). */
  config: { path: string; exists: boolean; warning?: string };
  stateDir: string;
  agents: AgentRow[];
  runs: { active: number; queued: number; maxConcurrent: number };
  cluster?: RemoteCluster;
}

/** Everything `status` shows; `gateway.running` says whether it came from a live gateway. */
export interface StatusReport {
  /** The config file's own validation (the file on disk, whatever the gateway runs). */
  configCheck: { valid: boolean; path: string; issues: ConfigIssue[] };
  gateway: { running: boolean; url: string; error?: string } & Partial<RemoteStatus["gateway"]>;
  config: { path: string; exists: boolean; warning?: string };
  stateDir: string;
  agents: AgentRow[];
  /** From `agents.list`: the default agent and the session scope. */
  roster?: { defaultId: string; scope: string };
  sessions: { count: number; recent: SessionRow[] };
  runs?: RemoteStatus["runs"];
  /** The run queue and its workers (a gateway with `cluster.queue`). */
  cluster?: RemoteCluster;
  /** Configured channels (a live gateway's, else the config's), each with its account ids. */
  channels?: Record<string, ChannelSummary>;
  models?: { count: number; used: string[]; all?: Array<{ id: string; provider: string }> };
}

async function optional<T>(
  ctx: CliContext,
  client: GatewayClient,
  method: string,
): Promise<T | undefined> {
  try {
    return await client.request<T>(method);
  } catch (err) {
    // One section failing (a scope, an old gateway) must not hide the others: warn and go on.
    if (!(err instanceof GatewayRequestError)) throw err;
    ctx.stderr(`warning: ${method}: ${describeGatewayError(err)}\n`);
    return undefined;
  }
}

async function remoteReport(
  ctx: CliContext,
  params: { client: GatewayClient; target: GatewayTarget; all: boolean },
): Promise<Omit<StatusReport, "configCheck">> {
  const { client, target } = params;
  const [status, roster, sessions, models, channels] = await Promise.all([
    client.request<RemoteStatus>("status"),
    optional<{ defaultId: string; scope: string }>(ctx, client, "agents.list"),
    optional<{ count: number; sessions: SessionRow[] }>(ctx, client, "sessions.list"),
    optional<{ models: Array<{ id: string; provider: string }> }>(ctx, client, "models.list"),
    optional<Partial<ChannelsStatus>>(ctx, client, "channels.status"),
  ]);
  const used = [...new Set(status.agents.flatMap((agent) => (agent.model ? [agent.model] : [])))];
  const modelList = models?.models ?? [];
  return {
    gateway: { running: true, url: target.url, ...status.gateway },
    config: status.config,
    stateDir: status.stateDir,
    agents: status.agents,
    ...(roster ? { roster: { defaultId: roster.defaultId, scope: roster.scope } } : {}),
    sessions: {
      count: sessions?.count ?? 0,
      recent: (sessions?.sessions ?? []).slice(0, params.all ? undefined : 5),
    },
    runs: status.runs,
    ...(status.cluster ? { cluster: status.cluster } : {}),
    channels: summarizeChannelsStatus(channels ?? {}),
    models: {
      count: modelList.length,
      used,
      ...(params.all ? { all: modelList.map(({ id, provider }) => ({ id, provider })) } : {}),
    },
  };
}

async function localReport(
  ctx: CliContext,
  target: GatewayTarget,
  error: string,
): Promise<Omit<StatusReport, "configCheck">> {
  const { loaded } = target;
  const builtin = builtinChannelLoaders();
  const agents: AgentRow[] = [];
  for (const agent of listAgents(loaded.config, loaded.paths)) {
    const store = openAgentStore(ctx, { loaded, agent });
    agents.push({
      id: agent.id,
      isDefault: agent.isDefault,
      ...(agent.model ? { model: agent.model } : {}),
      workspace: agent.workspace,
      sessions: store.size,
    });
    await store.close();
  }
  return {
    gateway: { running: false, url: target.url, error },
    config: { path: loaded.path, exists: loaded.exists },
    stateDir: loaded.paths.stateDir,
    agents,
    sessions: { count: agents.reduce((sum, agent) => sum + agent.sessions, 0), recent: [] },
    channels: summarizeConfiguredChannels(loaded.config, (id) => Object.hasOwn(builtin, id)),
  };
}

/** A valid config's warnings (keys Pincer ignores, ...): one line each, naming the path. */
function configWarningLines(ctx: CliContext, issues: readonly ConfigIssue[]): string[] {
  const s = style(ctx);
  return issues
    .filter((issue) => issue.severity === "warning")
    .map((issue) => {
      // Some messages already start with their path (the sandbox warning): no repeat.
      const path = issue.path || "(root)";
      const text = issue.message.startsWith(path) ? issue.message : `${path}: ${issue.message}`;
      return `          ${s.yellow("warning")} ${text}`;
    });
}

/** Renders the report as short aligned lines. */
export function formatStatus(ctx: CliContext, report: StatusReport): string[] {
  const s = style(ctx);
  const home = ctx.env.HOME ?? "";
  const g = report.gateway;
  const check = report.configCheck;
  // An invalid config comes first: the gateway cannot (re)start with it.
  const invalid = check.valid
    ? []
    : formatConfigIssues(check, { color: ctx.color }).split("\n").concat("");
  const lines = [
    ...invalid,
    g.running
      ? `Gateway   ${g.url} ${s.green("running")} (pincer ${g.version}, pid ${g.pid}, up ${formatDuration(Math.max(1000, g.uptimeMs ?? 0))}, auth ${g.authMode}, ${g.connections} connection(s))`
      : `Gateway   ${g.url} ${s.yellow("not running")} (${g.error}); showing local state`,
    `Config    ${displayPath(report.config.path, home)}${report.config.exists ? "" : " (missing)"}`,
    ...(report.config.warning ? [`          ${s.yellow(report.config.warning)}`] : []),
    ...(check.valid ? configWarningLines(ctx, check.issues) : []),
    `State     ${displayPath(report.stateDir, home)}`,
    `Agents    ${report.agents.length}${report.roster ? ` (default ${report.roster.defaultId}, session scope ${report.roster.scope})` : ""}`,
  ];
  for (const agent of report.agents) {
    const mark = agent.isDefault ? " (default)" : "";
    lines.push(
      `  ${agent.id}${mark}  model ${agent.model ?? "-"}  sessions ${agent.sessions}  ${displayPath(agent.workspace, home)}`,
    );
  }
  lines.push(`Sessions  ${report.sessions.count}`);
  const now = Date.now();
  for (const row of report.sessions.recent) {
    lines.push(
      `  ${row.key}  ${formatAge(now - row.updatedAt)}${row.model ? `  ${row.model}` : ""}`,
    );
  }
  if (report.runs) {
    const r = report.runs;
    lines.push(`Runs      ${r.active} active, ${r.queued} queued (max ${r.maxConcurrent})`);
  }
  lines.push(...clusterLines(report.cluster));
  if (report.channels !== undefined) {
    // An adapter-less channel is never shown as enabled: "no adapter", with its account names.
    const names = Object.entries(report.channels).map(([name, channel]) => {
      const accounts = channel.accountIds.join(", ");
      if (!channel.adapter) return `${name} (${s.yellow("no adapter")}: ${accounts || "-"})`;
      return accounts ? `${name} (${accounts})` : name;
    });
    lines.push(`Channels  ${names.length === 0 ? "none" : names.join(", ")}`);
  }
  if (report.models) {
    const m = report.models;
    lines.push(`Models    ${m.count} available; in use: ${m.used.join(", ") || "-"}`);
    for (const model of m.all ?? []) lines.push(`  ${model.provider}/${model.id}`);
  }
  return lines;
}

/** Prints the status report; exit 0 also when no gateway runs (exit 1 when one refuses us). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof statusOptions>,
): Promise<number> {
  const target = resolveGatewayTarget(ctx, opts);
  let report: Omit<StatusReport, "configCheck">;
  let code: number = ExitCode.ok;
  let client: GatewayClient | undefined;
  try {
    client = await connectForCli(ctx, target);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    // Not running (or refusing us): fall back to what the config and stores say.
    const refused = !err.message.startsWith("gateway not reachable");
    if (refused) code = ExitCode.failure;
    report = await localReport(ctx, target, refused ? err.message : "not reachable");
  }
  if (client) {
    try {
      report = await remoteReport(ctx, { client, target, all: opts.all === true });
    } catch (err) {
      if (!(err instanceof GatewayRequestError)) throw err;
      throw new CliError(`status failed: ${describeGatewayError(err)}`);
    } finally {
      await client.close();
    }
  }
  const checked = withCompatKeyIssues(withModelRefIssues(target.loaded, target.loaded.env));
  const full: StatusReport = {
    configCheck: { valid: checked.valid, path: checked.path, issues: checked.issues },
    ...report!,
  };
  if (opts.json) printJson(ctx, full);
  else for (const line of formatStatus(ctx, full)) printLine(ctx, line);
  return code;
}
