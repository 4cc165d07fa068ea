// The system prompt of one run: bootstrap files for the session's mode, the session's skills
// snapshot (taken on its first run, so a skill change shows up in the next session, not mid-run),
// the tools the policy lets through, and the runtime line.
import { hostname, platform, release } from "node:os";
import { type BootstrapFile, loadBootstrapFiles } from "../../agents/bootstrap.js";
import type { BootstrapHookRegistry } from "../../agents/bootstrap-hooks.js";
import {
  type DiscoverSkillsParams,
  discoverSkills,
  isSnapshotUsable,
  type SkillsSnapshot,
  takeSkillsSnapshot,
} from "../../agents/skills/index.js";
import {
  buildSystemPrompt,
  type PromptMode,
  type SystemPromptParams,
} from "../../agents/system-prompt.js";
import { expandHome, type StatePaths } from "../../config/paths.js";
import type { ResolvedAgent, ResolvedConfig } from "../../config/resolve.js";
import { buildAgentMainSessionKey, parseAgentSessionKey } from "../../routing/index.js";
import type { SessionStoreApi } from "../../sessions/index.js";
import { promptSandbox } from "../sandbox/prompt.js";
import type { RunCaches } from "./run-caches.js";

/** Inputs of {@link assembleRunPrompt}. */
export interface RunPromptParams {
  cfg: ResolvedConfig;
  paths: StatePaths;
  env: Record<string, string | undefined>;
  agent: ResolvedAgent;
  sessionKey: string;
  store: SessionStoreApi;
  tools: ReadonlyArray<{ name: string; description?: string }>;
  model: string;
  bundledSkillsDir?: string;
  now: number;
  /** Bootstrap snapshots and prompt memo; absent, everything is read and built afresh. */
  caches?: Pick<RunCaches, "bootstrap" | "prompts" | "workspaces">;
  /** `agent:bootstrap` hooks; only a registry with hooks in it is used (an empty one keeps the cache). */
  bootstrapHooks?: BootstrapHookRegistry;
}

/** The assembled prompt and what went into it. */
export interface RunPrompt {
  systemPrompt: string;
  mode: PromptMode;
  warnings: string[];
}

function isSubagentKey(sessionKey: string): boolean {
  return parseAgentSessionKey(sessionKey)?.rest.split(":").includes("subagent") === true;
}

/** Where a run's new session discovers its skills (`pincer context` discovers them the same way). */
export function runSkillsDiscovery(
  params: Pick<RunPromptParams, "agent" | "paths" | "bundledSkillsDir" | "cfg" | "env">,
): DiscoverSkillsParams {
  return {
    workspaceDir: params.agent.workspace,
    stateDir: params.paths.stateDir,
    ...(params.bundledSkillsDir ? { bundledDir: params.bundledSkillsDir } : {}),
    config: params.cfg.config,
    env: params.env,
    home: params.paths.home,
    ...(Array.isArray(params.agent.entry.skills) ? { agentSkills: params.agent.entry.skills } : {}),
  };
}

function sessionSkills(params: RunPromptParams): SkillsSnapshot {
  const existing: unknown = params.store.get(params.sessionKey)?.skillsSnapshot;
  if (isSnapshotUsable(existing)) return existing;
  const { skills } = discoverSkills(runSkillsDiscovery(params));
  const snapshot = takeSkillsSnapshot({ skills, now: params.now });
  params.store.annotate(params.sessionKey, { skillsSnapshot: snapshot });
  return snapshot;
}

/** The runtime line's host and OS: fixed for the life of the process. */
function hostDescription(): { host: string; os: string } {
  return { host: hostname(), os: `${platform()} ${release()}` };
}

/** Builds the run's system prompt (deterministic for the same files, skills and tools). */
export async function assembleRunPrompt(params: RunPromptParams): Promise<RunPrompt> {
  const { cfg, agent, sessionKey, caches } = params;
  const subagent = isSubagentKey(sessionKey);
  const mainKey = cfg.config.session?.mainKey;
  const main = buildAgentMainSessionKey({ agentId: agent.id, mainKey });
  const mode = subagent ? "subagent" : sessionKey === main ? "main" : "other";
  const load = {
    workspaceDir: agent.workspace,
    mode,
    maxChars: agent.bootstrapMaxChars,
    totalMaxChars: agent.bootstrapTotalMaxChars,
    agentId: agent.id,
    sessionKey,
    ...(params.bootstrapHooks?.list().length ? { hooks: params.bootstrapHooks } : {}),
  } as const;
  const bootstrap = caches ? await caches.bootstrap.load(load) : await loadBootstrapFiles(load);
  // Gone since it was seeded (deleted by hand): the next turn seeds it again.
  if (caches && "dirPresent" in bootstrap && !bootstrap.dirPresent)
    caches.workspaces.forget(agent.workspace);
  const promptMode: PromptMode = subagent ? "minimal" : "full";
  const skills = subagent ? undefined : sessionSkills(params);
  const build = () => buildPromptText({ params, promptMode, bootstrap: bootstrap.files, skills });
  const text = caches
    ? caches.prompts.get(
        sessionKey,
        {
          cfg,
          agentId: agent.id,
          agentName: agent.name,
          workspace: agent.workspace,
          mode: promptMode,
          bootstrapFiles: bootstrap.files,
          skillsPrompt: skills?.prompt,
          model: params.model,
          tools: params.tools,
        },
        build,
      )
    : build();
  return { systemPrompt: text, mode: promptMode, warnings: bootstrap.warnings };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Inputs of {@link runSystemPromptParams}: what a run's system prompt is built from. */
export interface RunSystemPromptInput {
  cfg: ResolvedConfig;
  agent: Pick<ResolvedAgent, "id" | "name" | "workspace">;
  sessionKey: string;
  model: string;
  tools: ReadonlyArray<{ name: string; description?: string }>;
  promptMode: PromptMode;
  bootstrap: BootstrapFile[];
  skillsPrompt: string | undefined;
}

/** The system prompt's params exactly as a run builds them (`pincer context` reports from these). */
export function runSystemPromptParams(input: RunSystemPromptInput): SystemPromptParams {
  const { cfg, agent, sessionKey } = input;
  const { defaults } = cfg;
  // The agent's own entry wins over agents.defaults (legacy `agent` folded in) for zone and clock.
  const entry = cfg.agents.find((item) => item.id === agent.id)?.entry;
  const userTimezone = nonEmpty(entry?.userTimezone) ?? nonEmpty(defaults.userTimezone);
  const timeFormat = entry?.timeFormat ?? defaults.timeFormat;
  const repoRoot = nonEmpty(defaults.repoRoot);
  const { host, os } = hostDescription();
  const sandbox = promptSandbox({ cfg, agentId: agent.id, sessionKey });
  return {
    mode: input.promptMode,
    agent: { id: agent.id, ...(agent.name ? { name: agent.name } : {}) },
    tools: input.tools.map((tool) => ({ name: tool.name, description: tool.description })),
    ...(input.skillsPrompt ? { skillsPrompt: input.skillsPrompt } : {}),
    workspaceDir: agent.workspace,
    bootstrapFiles: input.bootstrap,
    ...(sandbox ? { sandbox } : {}),
    ...(userTimezone ? { userTimezone } : {}),
    ...(timeFormat ? { timeFormat } : {}),
    runtime: {
      host,
      os,
      node: process.version,
      model: input.model,
      agentId: agent.id,
      sessionKey,
      ...(repoRoot ? { repoRoot: expandHome(repoRoot, cfg.paths.home) } : {}),
    },
  };
}

function buildPromptText(input: {
  params: RunPromptParams;
  promptMode: PromptMode;
  bootstrap: BootstrapFile[];
  skills: SkillsSnapshot | undefined;
}): string {
  const { params } = input;
  return buildSystemPrompt(
    runSystemPromptParams({
      cfg: params.cfg,
      agent: params.agent,
      sessionKey: params.sessionKey,
      model: params.model,
      tools: params.tools,
      promptMode: input.promptMode,
      bootstrap: input.bootstrap,
      skillsPrompt: input.skills?.prompt,
    }),
  ).text;
}
