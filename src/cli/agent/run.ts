// `pincer agent [--local] [--agent ID] [--session-key K] -m TEXT [--json] [--timeout S]`: one turn,
// streamed to the terminal. Through the running gateway by default (the `agent` method and its
// events; the reply streams from the run's `chat` deltas when the gateway supports the
// `text-deltas` cap, else from its `agent` assistant deltas); with --local embedded in this
// process, owning the state dir for the turn.

import { randomUUID } from "node:crypto";
import { resolveBundledSkillsDir } from "../../agents/skills/index.js";
import type { GatewayClient, GatewayEvent } from "../../client/index.js";
import { GatewayRequestError, nextChatText } from "../../client/index.js";
import { assertNever } from "../../lib/assert-never.js";
import { TEXT_DELTAS_CAP } from "../../protocol/gateway/caps.js";
import {
  buildAgentMainSessionKey,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import { ApprovalsFileStore } from "../../runtime/approvals/index.js";
import { createLaneScheduler } from "../../runtime/lanes/index.js";
import { createThinkingFilter } from "../../runtime/output/index.js";
import { type RunEvent, type RunResult, runAgent } from "../../runtime/run/index.js";
import { ProcessRegistry } from "../../runtime/tools/index.js";
import {
  acquireStateDirLock,
  SessionStoreRegistry,
  StateDirLockedError,
} from "../../sessions/index.js";
import { selectAgent } from "../agent-select.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, style } from "../command-context.js";
import {
  connectForCli,
  describeGatewayError,
  resolveGatewayTarget,
} from "../gateway-client-options.js";
import { loadForCli } from "../load.js";
import type { agentOptions } from "./commands.js";

type AgentRunOptions = OptionsOf<typeof agentOptions>;

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
  switch (event.type) {
    case "tool_start":
      return `· ${event.toolName} ${JSON.stringify(event.args)}`;
    case "tool_end":
      return event.isError ? `· ${event.toolName} failed` : undefined;
    case "failover":
      return `! failover ${event.from.model} (${event.from.credential}) → ${event.to.model} (${event.to.credential}): ${event.reason}`;
    case "compaction":
      return `· compaction: ${event.detail}`;
    // Deltas are the reply itself (stdout); the rest ends in the result.
    case "assistant_delta":
    case "lifecycle":
    case "model":
      return undefined;
    default:
      return assertNever(event, "run event");
  }
}

/** Runs one embedded turn and streams it; exit 1 when the run does not end ok. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof agentOptions>,
): Promise<number> {
  const message = opts.message?.trim();
  if (!message) throw new CliError("-m, --message is required", ExitCode.usage);
  const timeoutSeconds = opts.timeout === undefined ? undefined : Number(opts.timeout);
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0)) {
    throw new CliError(
      `--timeout "${opts.timeout}": expected a number of seconds above 0`,
      ExitCode.usage,
    );
  }
  if (!opts.local) return runViaGateway(ctx, { opts, message, timeoutSeconds });
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
  const stopListening = ctx.onSignal(["SIGINT"], () => controller.abort());
  const s = style(ctx);
  let result: RunResult;
  try {
    const bundled = resolveBundledSkillsDir({ moduleUrl: import.meta.url, env: loaded.env });
    const deps = {
      config: loaded.resolved,
      paths: loaded.paths,
      env: loaded.env,
      stores,
      lanes: createLaneScheduler({ maxConcurrent: 1 }),
      jobs,
      // The allowlist applies; an approval cannot be asked for without a gateway (a miss is refused).
      approvals: { file: new ApprovalsFileStore({ stateDir: loaded.paths.stateDir }) },
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
    stopListening();
    await jobs.stopAll();
    await stores.closeAll();
    lock.release();
  }
  if (opts.json) printJson(ctx, { agentId, sessionKey, ...result });
  else if (result.status !== "ok")
    ctx.stderr(`${s.red(`run ${result.status}`)}: ${result.error ?? ""}\n`);
  return result.status === "ok" ? ExitCode.ok : ExitCode.failure;
}

/** The final payload of the `agent` method. */
interface AgentFinal {
  runId: string;
  status: string;
  summary?: string;
  result?: { payloads?: Array<{ text?: string; mediaUrl?: string | null; mediaUrls?: string[] }> };
}

/** One `agent` event's line for stderr (tools, failovers, compaction), like the local path. */
function describeGatewayEvent(stream: string, data: Record<string, unknown>): string | undefined {
  if (stream === "tool" && data.phase === "start") {
    return `· ${String(data.name)} ${JSON.stringify(data.args)}`;
  }
  if (stream === "tool" && data.phase === "result" && data.isError) {
    return `· ${String(data.name)} failed`;
  }
  if (stream === "lifecycle" && data.phase === "fallback") {
    const from = data.from as { model?: string; credential?: string } | undefined;
    const to = data.to as { model?: string; credential?: string } | undefined;
    return `! failover ${from?.model} (${from?.credential}) → ${to?.model} (${to?.credential}): ${String(data.reason)}`;
  }
  if (stream === "compaction") return `· compaction: ${String(data.detail)}`;
  return undefined;
}

async function awaitFinal(
  ctx: CliContext,
  params: { client: GatewayClient; request: Record<string, unknown>; timeoutSeconds?: number },
): Promise<AgentFinal> {
  const { client, request } = params;
  // Ctrl-C aborts the run on the gateway; the final (aborted) answer still arrives.
  const stopListening = ctx.onSignal(["SIGINT"], () => {
    client
      .request("chat.abort", {
        sessionKey: request.sessionKey ?? "main",
        runId: request.idempotencyKey,
      })
      .catch((err: unknown) => ctx.stderr(`warning: abort failed: ${String(err)}\n`));
  });
  try {
    return await client.request<AgentFinal>("agent", request, {
      expectFinal: true,
      timeoutMs: params.timeoutSeconds ? params.timeoutSeconds * 1000 + 30_000 : 0,
      onAccepted: (ack) => {
        const key = (ack as { sessionKey?: unknown }).sessionKey;
        if (typeof key === "string") request.sessionKey = key;
      },
    });
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    throw new CliError(`agent failed: ${describeGatewayError(err)}`);
  } finally {
    stopListening();
  }
}

/** The turn through the running gateway: `agent` with a fresh idempotencyKey, its events streamed. */
async function runViaGateway(
  ctx: CliContext,
  params: { opts: AgentRunOptions; message: string; timeoutSeconds: number | undefined },
): Promise<number> {
  const { opts, message, timeoutSeconds } = params;
  const target = resolveGatewayTarget(ctx, { ...opts, timeout: undefined });
  const client = await connectForCli(ctx, target, {
    hint: "start it with `pincer gateway`, or add --local to run the turn in this process",
    caps: [TEXT_DELTAS_CAP],
  });
  const textDeltas = client.hello.features?.capabilities?.includes(TEXT_DELTAS_CAP) === true;
  const runId = randomUUID();
  const s = style(ctx);
  const filter = createThinkingFilter();
  const stopSpinner = opts.json ? () => {} : startSpinner(ctx);
  let spinning = true;
  let streamed = false;
  const stop = () => {
    if (spinning) stopSpinner();
    spinning = false;
  };
  const print = (delta: string) => {
    stop();
    streamed = true;
    ctx.stdout(filter.push(delta));
  };
  // The run's text so far, rebuilt from its chat events (text-deltas).
  let received = "";
  const unsubscribeChat = client.onEvent("chat", (event: GatewayEvent) => {
    const payload = event.payload as { runId?: string };
    if (opts.json || !textDeltas || payload.runId !== runId) return;
    const update = nextChatText(received, payload);
    received = update.text;
    if (update.appended) print(update.appended);
  });
  const unsubscribe = client.onEvent("agent", (event: GatewayEvent) => {
    const payload = event.payload as {
      runId?: string;
      stream?: string;
      data?: Record<string, unknown>;
    };
    if (opts.json || payload.runId !== runId || !payload.stream || !payload.data) return;
    if (payload.stream === "assistant") {
      if (!textDeltas && typeof payload.data.delta === "string") print(payload.data.delta);
      return;
    }
    const line = describeGatewayEvent(payload.stream, payload.data);
    if (line) ctx.stderr(`${s.dim(line)}\n`);
  });
  const request: Record<string, unknown> = {
    message,
    idempotencyKey: runId,
    ...(opts.agent ? { agentId: opts.agent } : {}),
    ...(opts.sessionKey ? { sessionKey: opts.sessionKey } : {}),
    ...(timeoutSeconds ? { timeout: Math.ceil(timeoutSeconds) } : {}),
  };
  let final: AgentFinal;
  try {
    final = await awaitFinal(ctx, {
      client,
      request,
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
    });
  } finally {
    stop();
    unsubscribe();
    unsubscribeChat();
    await client.close();
  }
  const payloads = final.result?.payloads ?? [];
  if (opts.json) {
    printJson(ctx, {
      ...final,
      ...(opts.agent ? { agentId: opts.agent } : {}),
      sessionKey: request.sessionKey,
    });
  } else {
    const rest = filter.flush();
    // Nothing streamed (e.g. a cached answer): print the final text instead.
    const text = streamed ? rest : payloads.map((payload) => payload.text ?? "").join("\n\n");
    ctx.stdout(`${text}${!streamed && text === "" ? "" : "\n"}`);
    const media = payloads.flatMap((p) => p.mediaUrls ?? (p.mediaUrl ? [p.mediaUrl] : []));
    for (const url of media) ctx.stdout(`media: ${url}\n`);
    if (final.status !== "ok")
      ctx.stderr(`${s.red(`run ${final.status}`)}: ${final.summary ?? ""}\n`);
  }
  return final.status === "ok" ? ExitCode.ok : ExitCode.failure;
}
