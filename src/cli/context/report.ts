// `pincer context [--agent ID] [--session KEY] [--detail] [--json]`: what a run would send to the
// model and how big each part is — OpenClaw's `/context list` and `/context detail`, from the CLI.

import { loadBootstrapFiles } from "../../agents/bootstrap.js";
import type { BootstrapMode } from "../../agents/bootstrap-hooks.js";
import { buildContextReport, type ContextReport } from "../../agents/context-report.js";
import { formatContextReport } from "../../agents/context-report-format.js";
import {
  discoverSkills,
  isSnapshotUsable,
  type SkillsSnapshot,
  takeSkillsSnapshot,
} from "../../agents/skills/index.js";
import {
  buildAgentMainSessionKey,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import { runSkillsDiscovery, runSystemPromptParams } from "../../runtime/run/prompt.js";
import { currentBranch, isMessageEntry, openSessionStore } from "../../sessions/index.js";
import { agentSkillParams, selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import { asBlock, type CliContext, CliError, ExitCode, printJson } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { contextOptions } from "./commands.js";
import { runToolsFor } from "./tools.js";

/** Which bootstrap set a session gets: the main session, a sub-agent, or any other session. */
export function bootstrapModeFor(sessionKey: string, mainSessionKey: string): BootstrapMode {
  if (sessionKey === mainSessionKey) return "main";
  return parseAgentSessionKey(sessionKey)?.rest.split(":").includes("subagent")
    ? "subagent"
    : "other";
}

/** What the session already fixed for its runs: history size and the skills snapshot, if any. */
export function readSessionContext(params: { storePath: string; sessionKey: string }): {
  history: { messages: number; chars: number };
  skillsSnapshot?: SkillsSnapshot;
} {
  // No lock: a read-only view, safe while a gateway owns the store.
  const store = openSessionStore({ storePath: params.storePath });
  const read = store.readTranscript(params.sessionKey);
  const messages = read ? currentBranch(read.entries).filter(isMessageEntry) : [];
  const chars = messages.reduce((sum, entry) => sum + JSON.stringify(entry.message).length, 0);
  const snapshot: unknown = store.get(params.sessionKey)?.skillsSnapshot;
  const history = { messages: messages.length, chars };
  return isSnapshotUsable(snapshot) ? { history, skillsSnapshot: snapshot } : { history };
}

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
  const mainSessionKey = buildAgentMainSessionKey({ agentId, mainKey });
  const sessionKey = opts.session
    ? toAgentStoreSessionKey({ agentId, requestKey: opts.session, mainKey })
    : mainSessionKey;
  const mode = bootstrapModeFor(sessionKey, mainSessionKey);
  const bootstrap = await loadBootstrapFiles({
    workspaceDir: agent.workspace,
    mode,
    maxChars: agent.bootstrapMaxChars,
    totalMaxChars: agent.bootstrapTotalMaxChars,
    agentId,
    sessionKey,
  });
  const session = readSessionContext({ storePath: agent.sessionStorePath, sessionKey });
  const subagent = mode === "subagent";
  // A session keeps the skills it started with; a new one discovers them as a run would.
  const discovery = runSkillsDiscovery({
    agent,
    paths: loaded.paths,
    cfg,
    env: loaded.env,
    bundledSkillsDir: agentSkillParams(ctx, { loaded, selected }).bundledDir,
  });
  const skillsPrompt = subagent
    ? undefined
    : (session.skillsSnapshot?.prompt ??
      takeSkillsSnapshot({ skills: discoverSkills(discovery).skills }).prompt);
  // The same model label, tool list and prompt params a run builds: the report counts what is sent.
  const { model, tools } = runToolsFor({ cfg, agent, sessionKey, env: loaded.env });
  const report: ContextReport = buildContextReport({
    ...runSystemPromptParams({
      cfg,
      agent,
      sessionKey,
      model,
      tools,
      promptMode: subagent ? "minimal" : "full",
      bootstrap: bootstrap.files,
      skillsPrompt,
    }),
    tools,
    history: session.history,
  });
  for (const warning of bootstrap.warnings) ctx.stderr(`warning: ${warning}\n`);
  if (opts.json) printJson(ctx, report);
  else ctx.stdout(asBlock(formatContextReport(report, { detail: opts.detail === true })));
  return ExitCode.ok;
}
