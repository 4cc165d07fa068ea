// Warming the run path before the first turn (the gateway calls it right after ready, in the
// background): for each agent, what a turn of its main session builds before its model request —
// its session store opened, the model chain and credentials resolved, the toolset, the bootstrap
// files and skills read, the system prompt built — and then the provider's request itself: streamed
// for real to an in-process loopback server answering in the provider's format where that format is
// known (`rehearse-stream.ts`: OpenAI chat completions, Anthropic messages), else built up to the
// point of sending under a signal aborted beforehand, so the SDK stops before any connection.
// The first turn then runs compiled code instead of paying for it. Only reads and in-memory caches:
// no session is created or annotated, no file is written, nothing leaves the host (the provider is
// never contacted, and its key is never sent).
import { type Api, type Model, streamSimple } from "@mariozechner/pi-ai";
import { loadBootstrapFiles } from "../../agents/bootstrap.js";
import { discoverSkills, takeSkillsSnapshot } from "../../agents/skills/index.js";
import { buildSystemPrompt } from "../../agents/system-prompt.js";
import { lookupAgent } from "../../config/resolve.js";
import { buildAgentMainSessionKey } from "../../routing/index.js";
import { firstAttempt, resolveAgentModelChain, resolveModel } from "../models/index.js";
import { buildToolset } from "../tools/index.js";
import { planAgentAttempts } from "./failover-loop.js";
import { runSkillsDiscovery, runSystemPromptParams } from "./prompt.js";
import { canRehearseStream, rehearseProviderStream } from "./rehearse-stream.js";
import { rehearseTurn } from "./rehearse-turn.js";
import { replyPayloads } from "./reply-payloads.js";
import type { AgentRuntimeDeps } from "./run-agent.js";
import { createSessionToolsHost } from "./session-tools-host.js";

/** The providers whose SDK checks the abort signal before it connects (so a warm-up sends nothing). */
const ABORT_BEFORE_SEND: ReadonlySet<string> = new Set([
  "openai-completions",
  "openai-responses",
  "azure-openai-responses",
  "anthropic-messages",
]);

/** What a warm-up of one agent went through (for logs and tests). */
export interface WarmUpReport {
  agentId: string;
  /** The stage reached: a whole turn rehearsed on throwaway state (`rehearse-turn.ts`, one agent),
   *  the provider stream rehearsed against an in-process server (`rehearse-stream.ts`), the
   *  provider request built (and aborted), or where it stopped. */
  reached: "turn" | "stream" | "request" | "prompt" | "no-model" | "no-credential" | "failed";
  /** Why it failed (the first turn will meet the same problem and report it). */
  error?: string;
}

/** Warms the run path of each agent in turn (see the file header); never throws for an agent. */
export async function warmRunPath(
  deps: AgentRuntimeDeps,
  agentIds: readonly string[],
): Promise<WarmUpReport[]> {
  const reports: WarmUpReport[] = [];
  for (const agentId of agentIds) {
    reports.push(
      await warmAgent(deps, agentId).catch(
        (err: unknown): WarmUpReport => ({ agentId, reached: "failed", error: String(err) }),
      ),
    );
  }
  // Then one whole turn on throwaway state (rehearse-turn.ts): the code is shared by every agent.
  const rehearsed = reports.find((report) => report.reached === "stream");
  if (rehearsed) {
    const turn = await rehearseTurn(deps, rehearsed.agentId).catch((err: unknown) => ({
      ok: false as const,
      reason: String(err),
    }));
    if (turn.ok) rehearsed.reached = "turn";
    else rehearsed.error = `turn rehearsal fell short: ${turn.reason}`;
  }
  return reports;
}

async function warmAgent(deps: AgentRuntimeDeps, agentId: string): Promise<WarmUpReport> {
  const cfg = deps.config;
  const agent = lookupAgent(cfg, agentId);
  const sessionKey = buildAgentMainSessionKey({ agentId, mainKey: cfg.config.session?.mainKey });
  deps.stores.forAgent(agentId);
  const chain = resolveAgentModelChain({ cfg, agentId });
  if (!chain.primary) return { agentId, reached: "no-model" };
  const plan = planAgentAttempts({ deps, agent, chain, now: Date.now() });
  const step = firstAttempt(plan);
  if (step.kind !== "attempt") return { agentId, reached: "no-credential" };
  const attempt = plan.attempts[step.index]!;
  const resolved = resolveModel({ cfg: cfg.config, ref: attempt.ref, env: deps.env });
  if (!resolved.ok) return { agentId, reached: "no-model" };
  const model = resolved.model;
  const aborted = new AbortController();
  aborted.abort(new Error("warm-up: nothing is sent"));
  const tools = buildToolset({
    cfg,
    agentId: agent.id,
    sessionKey,
    workspaceDir: agent.workspace,
    host: createSessionToolsHost({ deps, agentId: agent.id, sessionKey }),
    jobs: deps.jobs,
    ...(deps.cronTools ? { cron: deps.cronTools(agent.id) } : {}),
    ...(deps.nodeTools ? { nodes: deps.nodeTools } : {}),
    signal: aborted.signal,
    provider: model.provider,
    modelId: model.id,
    api: model.api,
    env: deps.env,
  });
  const load = {
    workspaceDir: agent.workspace,
    mode: "main",
    maxChars: agent.bootstrapMaxChars,
    totalMaxChars: agent.bootstrapTotalMaxChars,
    agentId: agent.id,
    sessionKey,
  } as const;
  const bootstrap = deps.caches
    ? await deps.caches.bootstrap.load(load)
    : await loadBootstrapFiles(load);
  const discovery = {
    cfg,
    agent,
    paths: deps.paths,
    env: deps.env,
    ...(deps.bundledSkillsDir ? { bundledSkillsDir: deps.bundledSkillsDir } : {}),
  };
  const { skills } = discoverSkills(runSkillsDiscovery(discovery));
  const systemPrompt = buildSystemPrompt(
    runSystemPromptParams({
      cfg,
      agent,
      sessionKey,
      model: attempt.model,
      tools,
      promptMode: "full",
      bootstrap: bootstrap.files,
      skillsPrompt: takeSkillsSnapshot({ skills, now: Date.now() }).prompt,
    }),
  ).text;
  replyPayloads("warm-up");
  // A test transport (deps.streamFn) is not the provider's SDK: nothing of it to warm.
  if (deps.streamFn) return { agentId, reached: "prompt" };
  const request = { model, apiKey: attempt.credential.secret, systemPrompt, tools, aborted };
  if (!canRehearseStream(model.api))
    return { agentId, reached: await buildAbortedRequest(request) };
  const failure = await rehearseProviderStream({ model, systemPrompt, tools }).then(
    () => undefined,
    (err: unknown) => String(err),
  );
  if (failure === undefined) return { agentId, reached: "stream" };
  // Still build the real request (unsent), and say why the rehearsal did not go through.
  const reached = await buildAbortedRequest(request);
  return { agentId, reached, error: `stream rehearsal failed: ${failure}` };
}

/** Runs the provider's stream under an aborted signal: the request is built, never sent (for the
 *  SDKs that check the signal before connecting; the others are left alone: "prompt"). */
async function buildAbortedRequest(input: {
  model: Model<Api>;
  apiKey: string;
  systemPrompt: string;
  tools: Parameters<typeof streamSimple>[1]["tools"];
  aborted: AbortController;
}): Promise<"request" | "prompt"> {
  const { model, apiKey, systemPrompt, tools, aborted } = input;
  if (!ABORT_BEFORE_SEND.has(model.api)) return "prompt";
  const messages = [{ role: "user" as const, content: "warm-up", timestamp: Date.now() }];
  const stream = streamSimple(
    model,
    { systemPrompt, messages, ...(tools ? { tools } : {}) },
    { apiKey, signal: aborted.signal, maxRetries: 0 },
  );
  await stream.result();
  return "request";
}
