// `pincer context [--agent ID] [--session KEY] [--detail] [--json]`: what a run would send to the
// model and how big each part is — OpenClaw's `/context list` and `/context detail`, from the CLI.
// The report itself is built by the runtime's context-report builder (shared with in-chat `/context`).

import { formatContextReport } from "../../agents/context-report-format.js";
import {
  buildAgentMainSessionKey,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import {
  buildSessionContextReport,
  readSessionContext,
} from "../../runtime/context-report/session-report.js";
import { openSessionStore } from "../../sessions/index.js";
import { agentSkillParams, selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import { asBlock, type CliContext, CliError, ExitCode, printJson } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { contextOptions } from "./commands.js";

export { bootstrapModeFor } from "../../runtime/context-report/session-report.js";

/** Builds the context report for one agent and session from the files on disk. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof contextOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.resolved;
  const keyAgent = opts.session ? parseAgentSessionKey(opts.session)?.agentId : undefined;
  if (keyAgent && opts.agent && keyAgent !== opts.agent) {
    throw new CliError(
      `--session ${opts.session} belongs to agent "${keyAgent}", not "${opts.agent}"`,
      ExitCode.usage,
    );
  }
  const selected = selectAgent(loaded, opts.agent ?? keyAgent);
  const { agentId, agent } = selected;
  const mainKey = cfg.config.session?.mainKey;
  const sessionKey = opts.session
    ? toAgentStoreSessionKey({ agentId, requestKey: opts.session, mainKey })
    : buildAgentMainSessionKey({ agentId, mainKey });
  // No lock: a read-only view, safe while a gateway owns the store.
  const store = openSessionStore({ storePath: agent.sessionStorePath });
  const bundledDir = agentSkillParams(ctx, { loaded, selected }).bundledDir;
  const { report, warnings } = await buildSessionContextReport({
    cfg,
    agent,
    paths: loaded.paths,
    env: loaded.env,
    sessionKey,
    session: readSessionContext(store, sessionKey),
    ...(bundledDir ? { bundledSkillsDir: bundledDir } : {}),
  });
  for (const warning of warnings) ctx.stderr(`warning: ${warning}\n`);
  if (opts.json) printJson(ctx, report);
  else ctx.stdout(asBlock(formatContextReport(report, { detail: opts.detail === true })));
  return ExitCode.ok;
}
