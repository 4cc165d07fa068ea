// The agent runtime the gateway owns: one session-store registry (state-dir lock held), one lane
// scheduler (global cap agents.defaults.maxConcurrent, default 4; per-agent cap
// agents.list[].maxConcurrent, both live on reload) and one process registry, built once. Each new
// run gets a deps object with the resolved config current at its start, so a reload never touches it.
// The model/tool modules (pi-ai, ~200 ms and ~30 MB) are not imported before the gateway listens:
// `preload()` loads them (and the configured models' provider modules) in the background right
// after, then warms each agent's run path, and a run that starts meanwhile waits on the same load.
// At start (and on a reload that adds one) it notes every agent whose tools run sandboxed.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { BootstrapHookRegistry } from "../../agents/bootstrap-hooks.js";
import {
  findAgent,
  maxConcurrentOf,
  type ResolvedConfig,
  type StatePaths,
} from "../../config/index.js";
import type { Logger } from "../../lib/logger.js";
import type { PluginHost } from "../../plugins/index.js";
import { parseAgentSessionKey, resolveAgentIdFromSessionKey } from "../../routing/index.js";
import { createLaneScheduler, type LaneScheduler } from "../../runtime/lanes/index.js";
import type {
  AgentRuntimeDeps,
  ManualCompactionResult,
  RunAgentParams,
  RunCaches,
  RunHandle,
} from "../../runtime/run/index.js";
import { resolveEffectiveSandbox } from "../../runtime/sandbox/config.js";
import type { CronToolHost } from "../../runtime/tools/cron-tool.js";
import type { ProcessRegistry } from "../../runtime/tools/index.js";
import type { NodesToolHost } from "../../runtime/tools/nodes-tool.js";
import { listSandboxedAgents, sandboxNotice } from "../../runtime/tools/sandbox-policy.js";
import { agentBudgetOf, BudgetLedger } from "../../runtime/usage/budget.js";
import { decideTurnBudget } from "../../runtime/usage/budget-decision.js";
import { createUsageLogWriter } from "../../runtime/usage/usage-log.js";
import {
  type SessionLifecycleEvent,
  SessionStoreRegistry,
  type StateDirLock,
} from "../../sessions/index.js";
import type { ExecApprovalHub } from "../approvals/exec-approval-hub.js";
import { ClusterRuns } from "./cluster-runs.js";

interface RuntimeModules {
  run: typeof import("../../runtime/run/index.js");
}

/** Inputs of {@link RunResources}. */
export interface RunResourcesParams {
  /** The resolved config current now (the live config's). */
  config: () => ResolvedConfig;
  paths: StatePaths;
  env: Record<string, string | undefined>;
  lock: StateDirLock;
  logger: Logger;
  streamFn?: StreamFn;
  bundledSkillsDir?: string;
  clock?: { now(): number };
  /** The loaded plugins: every run gets their hooks and tools; sessions tell their hooks. */
  plugins?: PluginHost;
  /** The session hooks' store listener (from the plugins), if any plugin wants it. */
  onSessionLifecycle?: (event: SessionLifecycleEvent) => void;
  /** Exec approvals every run's exec gate asks (pending requests, the approvals file). */
  approvals?: ExecApprovalHub;
  /** `agent:bootstrap` hooks every run's prompt goes through (the gateway's internal hooks). */
  bootstrapHooks?: BootstrapHookRegistry;
  /** The cron tool's gateway access per agent (read when a run starts: the cron service comes later). */
  cronTools?: (agentId: string) => CronToolHost;
  /** The nodes tool's gateway access (the node.* methods). */
  nodeTools?: NodesToolHost;
}

function isSubagentKey(sessionKey: string): boolean {
  return parseAgentSessionKey(sessionKey)?.rest.split(":").includes("subagent") === true;
}

/** Stores, lanes and jobs shared by every run of the gateway. */
export class RunResources {
  readonly stores: SessionStoreRegistry;
  readonly lanes: LaneScheduler;
  private modules: Promise<RuntimeModules> | undefined;
  private preloading: Promise<void> | undefined;
  private jobs: ProcessRegistry | undefined;
  private caches: RunCaches | undefined;
  /** Sandbox warnings already logged (a reload logs only new ones). */
  private sandboxWarned = new Set<string>();

  /** Every turn's usage record and the budgets' spend (the usage log under the state dir). */
  readonly usage: BudgetLedger;

  /** The run queue when the config (at start) has `cluster.queue`: runs then go to workers. */
  readonly cluster: ClusterRuns | undefined;

  constructor(private readonly params: RunResourcesParams) {
    const config = params.config;
    const clock = params.clock;
    this.usage = new BudgetLedger({
      stateDir: params.paths.stateDir,
      writer: createUsageLogWriter({ stateDir: params.paths.stateDir, logger: params.logger }),
      now: () => (clock ? clock.now() : Date.now()),
    });
    this.stores = new SessionStoreRegistry({
      // A getter: stores opened after a reload follow the new config.
      get cfg() {
        return config().config;
      },
      paths: params.paths,
      lock: params.lock,
      logger: params.logger,
      ...(params.clock ? { clock: params.clock } : {}),
      ...(params.onSessionLifecycle ? { onLifecycle: params.onSessionLifecycle } : {}),
    });
    this.lanes = createLaneScheduler({
      maxConcurrent: maxConcurrentOf(config()),
      // Per-agent caps, read from the config current at each scheduling decision. Sub-agent runs are
      // not counted (OpenClaw gives them their own lane), so a parent never waits on its own slot.
      groups: {
        groupOf: (sessionKey) =>
          isSubagentKey(sessionKey) ? undefined : resolveAgentIdFromSessionKey(sessionKey),
        capOf: (agentId) => findAgent(config(), agentId)?.maxConcurrent,
      },
    });
    this.warnSandboxModes(config());
    this.cluster = ClusterRuns.of(config(), {
      logger: params.logger,
      now: () => (clock ? clock.now() : Date.now()),
      onUsage: (record) => this.usage.record(record),
      ...(params.cronTools && params.nodeTools
        ? {
            toolHosts: {
              cronTools: params.cronTools,
              nodeTools: params.nodeTools,
              ...(params.approvals ? { approvals: params.approvals } : {}),
            },
          }
        : {}),
    });
  }

  /** One notice per sandboxed agent (where its tools run); a reload logs only changed ones. */
  private warnSandboxModes(cfg: ResolvedConfig): void {
    const current = new Set<string>();
    for (const agent of listSandboxedAgents(cfg)) {
      const backend = resolveEffectiveSandbox(cfg, agent.agentId).backend.value;
      const message = sandboxNotice(agent, backend);
      current.add(message);
      if (this.sandboxWarned.has(message)) continue;
      this.params.logger.info(
        {
          agentId: agent.agentId,
          mode: agent.mode,
          path: agent.source,
        },
        message,
      );
    }
    this.sandboxWarned = current;
  }

  /** Loads the run and tool modules once (preload, first run or compaction); a failed load is retried. */
  private load(): Promise<RuntimeModules> {
    this.modules ??= Promise.all([
      import("../../runtime/run/index.js"),
      import("../../runtime/tools/index.js"),
    ]).then(
      ([run, tools]) => {
        this.jobs = new tools.ProcessRegistry();
        this.caches = run.createRunCaches();
        return { run };
      },
      (err: unknown) => {
        this.modules = undefined;
        throw err;
      },
    );
    return this.modules;
  }

  /**
   * Loads what the first run needs (run and tool modules, the provider modules of the agents'
   * primary models, fetch: one request to `warmUrl`) and warms each agent's run path (reads and
   * in-memory caches only, no model request: `warmRunPath`) so it is as fast as later ones. Once; a
   * failure is logged (the run that follows loads again and reports its own error), never thrown.
   */
  preload(warmUrl?: string): Promise<void> {
    this.cluster?.warm();
    this.preloading ??= (async () => {
      const { run } = await this.load();
      const warmup = await import("./provider-warmup.js");
      const config = this.params.config();
      await this.importLegacyAuth(config);
      const apis = warmup.primaryModelApis(config, this.params.env);
      const { fetchError } = await warmup.loadProviderModules(apis, warmUrl);
      if (fetchError)
        this.params.logger.debug({ error: fetchError, warmUrl }, "warm-up request failed");
      // Then each agent's run path up to its (unsent) model request, so the first turn runs warm.
      const agentIds = warmup.configuredAgentIds(config);
      for (const report of await run.warmRunPath(await this.deps(), agentIds)) {
        if (report.error === undefined) continue;
        const { agentId, error } = report;
        this.params.logger.debug(
          { agentId, error },
          "warming the run path fell short (the first turn will say why if it fails)",
        );
      }
    })().catch((err: unknown) => {
      this.params.logger.warn({ error: String(err) }, "preloading the run modules failed");
    });
    return this.preloading;
  }

  /** Each agent's legacy auth.json (and the default agent's credentials/oauth.json) into its
   *  auth-profiles.json, once, each import logged (runtime/models/auth-import.ts). */
  private async importLegacyAuth(config: ResolvedConfig): Promise<void> {
    const { importLegacyAuth } = await import("../../runtime/models/auth-import.js");
    const { logger, paths, clock } = this.params;
    for (const agent of config.agents) {
      try {
        const report = await importLegacyAuth({
          agentDir: agent.agentDir,
          ...(agent.isDefault ? { stateDir: paths.stateDir } : {}),
          now: clock?.now() ?? Date.now(),
          pid: process.pid,
        });
        for (const notice of report.notices) logger.info({ agentId: agent.id }, notice);
        for (const error of report.errors) logger.warn({ agentId: agent.id }, error);
      } catch (err) {
        // A rename or write that failed (disk, permissions): the files stay; the next start retries.
        logger.warn(
          { agentId: agent.id, error: String(err) },
          "importing legacy credentials failed",
        );
      }
    }
  }

  /** A deps object bound to the config current now. */
  async deps(): Promise<AgentRuntimeDeps> {
    await this.load();
    const { params } = this;
    return {
      config: params.config(),
      paths: params.paths,
      env: params.env,
      stores: this.stores,
      lanes: this.lanes,
      jobs: this.jobs as ProcessRegistry,
      log: params.logger,
      usage: this.usage,
      ...(params.cronTools ? { cronTools: params.cronTools } : {}),
      ...(params.nodeTools ? { nodeTools: params.nodeTools } : {}),
      ...(this.caches ? { caches: this.caches } : {}),
      ...(params.clock ? { clock: params.clock } : {}),
      ...(params.streamFn ? { streamFn: params.streamFn } : {}),
      ...(params.bundledSkillsDir ? { bundledSkillsDir: params.bundledSkillsDir } : {}),
      ...(params.plugins ? { plugins: params.plugins } : {}),
      ...(params.approvals ? { approvals: params.approvals } : {}),
      ...(params.bootstrapHooks ? { bootstrapHooks: params.bootstrapHooks } : {}),
    };
  }

  /** Starts a run under its given id (an RPC's idempotencyKey, a channel turn's lane run). */
  async start(params: RunAgentParams & { runId: string }): Promise<RunHandle> {
    if (this.cluster) {
      const agentId = params.agentId ?? resolveAgentIdFromSessionKey(params.sessionKey);
      // The budget decides here, from the gateway's ledger: a blocked turn is answered here (no
      // model call, recorded as blocked) and never queued; otherwise the decision goes with it.
      const budget = agentBudgetOf(this.params.config(), agentId);
      const turn = await decideTurnBudget({ ledger: this.usage, budget });
      const preset = { turn, ...(budget ? { budget } : {}) };
      if (turn.blockedText) {
        const { run } = await this.load();
        return run.runAgent(await this.deps(), { ...params, agentId, budget: preset });
      }
      return (await this.cluster.dispatcher()).start({ ...params, agentId, budget: preset });
    }
    const { run } = await this.load();
    return run.runAgent(await this.deps(), params);
  }

  /** Compacts a session now (in its lane). */
  async compact(target: {
    agentId: string;
    sessionKey: string;
    instructions?: string;
  }): Promise<ManualCompactionResult> {
    const { run } = await this.load();
    return run.compactSessionNow(await this.deps(), target);
  }

  /** Applies a reloaded config's concurrency caps (and warns about newly sandboxed agents). */
  applyConfig(cfg: ResolvedConfig): void {
    this.lanes.setMaxConcurrent(maxConcurrentOf(cfg));
    this.warnSandboxModes(cfg);
  }

  /** Stops background jobs and closes every store (final snapshots). */
  async close(): Promise<void> {
    await this.preloading;
    await this.cluster?.close();
    await this.jobs?.stopAll();
    await this.stores.closeAll();
    await this.usage.close();
  }
}
