// `pincer agent --local [--agent ID] [--session-key K] -m TEXT [--json] [--timeout S]`: one embedded
// turn, streamed to the terminal. It owns the state dir for the turn, as a gateway would.
import { resolveBundledSkillsDir } from "../agents/skills/index.js";
import {
  buildAgentMainSessionKey,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../routing/index.js";
import { createLaneScheduler } from "../runtime/lanes/index.js";
import { createThinkingFilter } from "../runtime/output/index.js";
import { type RunEvent, type RunResult, runAgent } from "../runtime/run/index.js";
import { ProcessRegistry } from "../runtime/tools/index.js";
import {
  acquireStateDirLock,
  SessionStoreRegistry,
  StateDirLockedError,
} from "../sessions/index.js";
import { selectAgent } from "./agent-select.js";
import { type CliContext, CliError, ExitCode, printJson, style } from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

interface AgentRunOptions {
  local?: boolean;
  agent?: string;
  sessionKey?: string;
  message?: string;
  json?: boolean;
  timeout?: string;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A stderr spinner shown until the first token (terminals only). */
function startSpinner(ctx: CliContext): () => void {
  if (!ctx.isTty) return () => {};
  let frame = 0;
  const timer = setInterval(
    () => ctx.stderr(`\r${SPINNER[frame++ % SPINNER.length]} thinking…`),
    80,
  );
  return () => {
    clearInterval(timer);
    ctx.stderr("\r\u001b[K");
  };
}

function describeEvent(event: RunEvent): string | undefined {
  if (event.type === "tool_start") return `· ${event.toolName} ${JSON.stringify(event.args)}`;
  if (event.type === "tool_end" && event.isError) return `· ${event.toolName} failed`;
  if (event.type === "failover") {
    return `! failover ${event.from.model} (${event.from.credential}) → ${event.to.model} (${event.to.credential}): ${event.reason}`;
  }
  if (event.type === "compaction") return `· compaction: ${event.detail}`;
  return undefined;
}

/** Runs one embedded turn and streams it; exit 1 when the run does not end ok. */
export async function run(
  ctx: CliContext,
  { opts }: CommandInput<AgentRunOptions>,
): Promise<number> {
  if (!opts.local) {
    throw new CliError(
      "the gateway is not available yet: add --local to run the turn embedded in this process",
      ExitCode.usage,
    );
  }
  const message = opts.message?.trim();
  if (!message) throw new CliError("-m, --message is required", ExitCode.usage);
  const timeoutSeconds = opts.timeout === undefined ? undefined : Number(opts.timeout);
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0)) {
    throw new CliError(
      `--timeout "${opts.timeout}": expected a number of seconds above 0`,
      ExitCode.usage,
    );
  }
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.config;
  const keyAgent = opts.sessionKey ? parseAgentSessionKey(opts.sessionKey)?.agentId : undefined;
  const { agentId } = selectAgent(loaded, opts.agent ?? keyAgent);
  const mainKey = cfg.session?.mainKey;
  const sessionKey = opts.sessionKey
    ? toAgentStoreSessionKey({ agentId, requestKey: opts.sessionKey, mainKey })
    : buildAgentMainSessionKey({ agentId, mainKey });

  let lock: ReturnType<typeof acquireStateDirLock>;
  try {
    lock = acquireStateDirLock({ stateDir: loaded.paths.stateDir, command: "agent --local" });
  } catch (err) {
    if (err instanceof StateDirLockedError) throw new CliError(err.message);
    throw err;
  }
  const stores = new SessionStoreRegistry({ cfg, paths: loaded.paths, lock });
  const jobs = new ProcessRegistry();
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  const s = style(ctx);
  let result: RunResult;
  try {
    const bundled = resolveBundledSkillsDir({ moduleUrl: import.meta.url, env: ctx.env });
    const deps = {
      cfg,
      paths: loaded.paths,
      env: ctx.env,
      stores,
      lanes: createLaneScheduler({ maxConcurrent: 1 }),
      jobs,
      ...(bundled ? { bundledSkillsDir: bundled } : {}),
    };
    const handle = runAgent(deps, {
      agentId,
      sessionKey,
      message,
      signal: controller.signal,
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
    });
    const stopSpinner = opts.json ? () => {} : startSpinner(ctx);
    const filter = createThinkingFilter();
    let spinning = true;
    for await (const event of handle.events) {
      if (opts.json) continue;
      if (event.type === "assistant_delta") {
        if (spinning) stopSpinner();
        spinning = false;
        ctx.stdout(filter.push(event.text));
      } else {
        const line = describeEvent(event);
        if (line) ctx.stderr(`${s.dim(line)}\n`);
      }
    }
    if (spinning) stopSpinner();
    result = await handle.result;
    if (!opts.json) {
      const rest = filter.flush();
      ctx.stdout(`${rest}${spinning && rest === "" ? "" : "\n"}`);
      for (const url of result.payloads.flatMap((payload) => payload.media))
        ctx.stdout(`media: ${url}\n`);
    }
  } finally {
    process.removeListener("SIGINT", onSigint);
    await jobs.stopAll();
    await stores.closeAll();
    lock.release();
  }
  if (opts.json) printJson(ctx, { agentId, sessionKey, ...result });
  else if (result.status !== "ok")
    ctx.stderr(`${s.red(`run ${result.status}`)}: ${result.error ?? ""}\n`);
  return result.status === "ok" ? ExitCode.ok : ExitCode.failure;
}
