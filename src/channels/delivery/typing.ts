// The typing indicator while a run is active: sent at once, refreshed every `intervalMs`
// (`typingIntervalSeconds`, default 6 s), stopped when the run ends. Failures are logged, not fatal.
import { findAgent, resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { ChannelAccountRuntime, OutboundTarget } from "../types.js";

/** Default refresh interval. */
export const DEFAULT_TYPING_INTERVAL_MS = 6000;

/** Timer functions (injectable for tests). */
export interface TypingTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const systemTypingTimers: TypingTimers = {
  setInterval: (fn, ms) => {
    const handle = setInterval(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/** Starts the indicator; returns `stop` (idempotent). A runtime without `sendTyping` is a no-op. */
export function startTyping(params: {
  runtime: Pick<ChannelAccountRuntime, "sendTyping">;
  target: OutboundTarget;
  intervalMs?: number;
  timers?: TypingTimers;
  onError?: (err: unknown) => void;
}): () => void {
  const { runtime, target } = params;
  if (!runtime.sendTyping) return () => {};
  const timers = params.timers ?? systemTypingTimers;
  const send = () => {
    runtime.sendTyping?.(target).catch((err: unknown) => params.onError?.(err));
  };
  send();
  const handle = timers.setInterval(send, params.intervalMs ?? DEFAULT_TYPING_INTERVAL_MS);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    timers.clearInterval(handle);
  };
}

/** Typing settings of an agent's runs: `typingMode: never` turns the indicator off; the interval
 * is the agent's, else `agents.defaults` (legacy `agent` folded), else `session.typingIntervalSeconds`,
 * else 6 s. Agents come from the resolved roster (`agents.entries` / `agents.list`). */
export function resolveTypingSettings(
  cfg: OpenClawConfig,
  agentId: string,
): { enabled: boolean; intervalMs: number } {
  const resolved = resolveRoster(cfg);
  // Entries accept extra keys: typing keys are read from the entry as the defaults name them.
  const agent = findAgent(resolved, agentId)?.entry as
    | { typingMode?: string; typingIntervalSeconds?: number }
    | undefined;
  const { defaults } = resolved;
  const mode = agent?.typingMode ?? defaults.typingMode ?? cfg.session?.typingMode;
  const seconds = [
    agent?.typingIntervalSeconds,
    defaults.typingIntervalSeconds,
    cfg.session?.typingIntervalSeconds,
  ].find((value): value is number => typeof value === "number" && value > 0);
  return {
    enabled: mode !== "never",
    intervalMs: seconds ? seconds * 1000 : DEFAULT_TYPING_INTERVAL_MS,
  };
}
