// The effective exec policy of an agent: `tools.exec.security` / `ask` / `safeBins`, the agent's own
// `agents.list[].tools.exec` over `agents.defaults.tools.exec` over the top-level `tools.exec`, each
// with the config key it came from. Unset security means "full" (Pincer's exec has always run every
// command; set "allowlist" or "deny" to gate it); unset ask means "on-miss" (OpenClaw's default);
// unset safeBins means OpenClaw's default list. An unknown value fails closed (deny / always).
import { formatConfigPath } from "../../config/config-path.js";
import { findAgent, type ResolvedConfig } from "../../config/resolve.js";
import { locateAgentEntry } from "../tools/config.js";
import { DEFAULT_SAFE_BINS } from "./safe-bins.js";
import { EXEC_ASK_MODES, EXEC_SECURITY_MODES, type ExecAsk, type ExecSecurity } from "./types.js";

/** An agent's exec policy and where each part comes from (for the model's and the user's messages). */
export interface ExecPolicy {
  security: ExecSecurity;
  /** Config path of the deciding `security` key; absent for the default. */
  securitySource?: string;
  ask: ExecAsk;
  askSource?: string;
  safeBins: readonly string[];
}

type ExecLike = { security?: unknown; ask?: unknown; safeBins?: unknown } | undefined;

function pick<T>(
  candidates: Array<[ExecLike, string]>,
  key: "security" | "ask" | "safeBins",
  accept: (raw: unknown) => T,
): { value: T; source: string } | undefined {
  for (const [exec, path] of candidates) {
    const raw = exec?.[key];
    if (raw !== undefined && raw !== null) return { value: accept(raw), source: `${path}.${key}` };
  }
  return undefined;
}

function asSecurity(raw: unknown): ExecSecurity {
  return (EXEC_SECURITY_MODES as readonly unknown[]).includes(raw) ? (raw as ExecSecurity) : "deny";
}

function asAsk(raw: unknown): ExecAsk {
  return (EXEC_ASK_MODES as readonly unknown[]).includes(raw) ? (raw as ExecAsk) : "always";
}

function asBins(raw: unknown): string[] {
  return Array.isArray(raw)
    ? raw.filter((b): b is string => typeof b === "string" && b !== "")
    : [];
}

/** Resolves `agentId`'s exec policy (see the file comment). */
export function resolveExecPolicy(cfg: ResolvedConfig, agentId: string): ExecPolicy {
  const own = findAgent(cfg, agentId)?.entry.tools?.exec as ExecLike;
  const located = locateAgentEntry(cfg, agentId);
  const candidates: Array<[ExecLike, string]> = [
    [own, `${located.path}.tools.exec`],
    [
      cfg.defaults.tools?.exec as ExecLike,
      formatConfigPath(["agents", "defaults", "tools", "exec"]),
    ],
    [cfg.config.tools?.exec as ExecLike, "tools.exec"],
  ];
  const security = pick(candidates, "security", asSecurity);
  const ask = pick(candidates, "ask", asAsk);
  const bins = pick(candidates, "safeBins", asBins);
  return {
    security: security?.value ?? "full",
    ...(security ? { securitySource: security.source } : {}),
    ask: ask?.value ?? "on-miss",
    ...(ask ? { askSource: ask.source } : {}),
    safeBins: bins?.value ?? DEFAULT_SAFE_BINS,
  };
}

/** Where a session's `exec` runs: in the sandbox, or on the gateway host. */
export type ExecHost = "sandbox" | "host";

/**
 * The one decision of where `exec` runs: a sandboxed session's exec goes to the sandbox unless the
 * session is elevated (`/elevated on|ask|full`), which runs it on the host, under exec approvals
 * (except "full"). An unsandboxed session always runs on the host.
 */
export function resolveExecHost(params: { sandboxed: boolean; elevated: boolean }): ExecHost {
  return params.sandboxed && !params.elevated ? "sandbox" : "host";
}
