// The context report of one agent and session: what a run would send to the model and how big each
// part is (bootstrap files, skills, tools, prompt sections, history). One builder for `pincer
// context` (session read from disk) and the in-chat `/context` (session read from the live store).
import { loadBootstrapFiles } from "../../agents/bootstrap.js";
import type { BootstrapMode } from "../../agents/bootstrap-hooks.js";
import { buildContextReport, type ContextReport } from "../../agents/context-report.js";
import {
  discoverSkills,
  isSnapshotUsable,
  type SkillsSnapshot,
  takeSkillsSnapshot,
} from "../../agents/skills/index.js";
import type { ResolvedAgent, ResolvedConfig, StatePaths } from "../../config/index.js";
import { buildAgentMainSessionKey, parseAgentSessionKey } from "../../routing/index.js";
import {
  currentBranch,
  type SessionEntry,
  type TranscriptReadResult,
} from "../../sessions/index.js";
import { buildContextFromBranch } from "../compaction/session-view.js";
import { runSkillsDiscovery, runSystemPromptParams } from "../run/prompt.js";
import { runToolsFor } from "./run-tools.js";

/** Which bootstrap set a session gets: the main session, a sub-agent, or any other session. */
export function bootstrapModeFor(sessionKey: string, mainSessionKey: string): BootstrapMode {
  if (sessionKey === mainSessionKey) return "main";
  return parseAgentSessionKey(sessionKey)?.rest.split(":").includes("subagent")
    ? "subagent"
    : "other";
}

/** What a session already fixed for its runs: history size and the skills snapshot, if any. */
export interface SessionContext {
  history: { messages: number; chars: number };
  skillsSnapshot?: SkillsSnapshot;
}

/** The store reads the session context needs (a live store or a read-only view of one). */
export interface SessionContextSource {
  get(key: string): Readonly<SessionEntry> | undefined;
  readTranscript(key: string): TranscriptReadResult | undefined;
}

/** The session context of `sessionKey` in `store`: the history a run sends (after the latest
 *  compaction: its summary, then what it kept and what came after) and the skills snapshot. */
export function readSessionContext(
  store: SessionContextSource,
  sessionKey: string,
): SessionContext {
  const read = store.readTranscript(sessionKey);
  const messages = read ? buildContextFromBranch(currentBranch(read.entries)) : [];
  const chars = messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  const snapshot: unknown = store.get(sessionKey)?.skillsSnapshot;
  const history = { messages: messages.length, chars };
  return isSnapshotUsable(snapshot) ? { history, skillsSnapshot: snapshot } : { history };
}

/** Inputs of {@link buildSessionContextReport}. */
export interface SessionReportParams {
  cfg: ResolvedConfig;
  agent: ResolvedAgent;
  paths: StatePaths;
  env: Record<string, string | undefined>;
  sessionKey: string;
  session: SessionContext;
  bundledSkillsDir?: string;
}

/** Builds the report with the run's own prompt, skills and tool builders; bootstrap warnings aside. */
export async function buildSessionContextReport(
  params: SessionReportParams,
): Promise<{ report: ContextReport; warnings: string[] }> {
  const { cfg, agent, sessionKey, session } = params;
  const mainSessionKey = buildAgentMainSessionKey({
    agentId: agent.id,
    mainKey: cfg.config.session?.mainKey,
  });
  const mode = bootstrapModeFor(sessionKey, mainSessionKey);
  const bootstrap = await loadBootstrapFiles({
    workspaceDir: agent.workspace,
    mode,
    maxChars: agent.bootstrapMaxChars,
    totalMaxChars: agent.bootstrapTotalMaxChars,
    agentId: agent.id,
    sessionKey,
  });
  const subagent = mode === "subagent";
  // A session keeps the skills it started with; a new one discovers them as a run would.
  const discovery = runSkillsDiscovery({
    agent,
    paths: params.paths,
    cfg,
    env: params.env,
    ...(params.bundledSkillsDir ? { bundledSkillsDir: params.bundledSkillsDir } : {}),
  });
  const skillsPrompt = subagent
    ? undefined
    : (session.skillsSnapshot?.prompt ??
      takeSkillsSnapshot({ skills: discoverSkills(discovery).skills }).prompt);
  // The same model label, tool list and prompt params a run builds: the report counts what is sent.
  const { model, tools } = runToolsFor({ cfg, agent, sessionKey, env: params.env });
  const report = buildContextReport({
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
  return { report, warnings: bootstrap.warnings };
}
