// `/elevated on|off|ask|full` (also `/elev`, OpenClaw's): sets this session's elevated level, which
// lets a sandboxed agent's exec run on the gateway host ("on"/"ask" keep exec approvals, "full"
// skips them). Only when elevated mode is available (`tools.elevated.enabled`, the agent's gate) and,
// for a chat sender, when `tools.elevated.allowFrom.<channel>` (Discord: else
// `channels.discord.dm.allowFrom`) and the agent's own `allowFrom`, if set, name them; everyone else
// gets the reason and nothing changes. Alone, it shows the level in force.
import type { ResolvedConfig } from "../../config/resolve.js";
import { findAgent } from "../../config/resolve.js";
import type { ElevatedConfig } from "../../protocol/config/index.js";
import {
  ELEVATED_LEVELS,
  effectiveElevatedLevel,
  elevatedAllowList,
  elevatedAvailability,
  isElevatedLevel,
} from "../../runtime/approvals/index.js";
import { resolveSessionSandbox } from "../../runtime/tools/sandbox-policy.js";
import { senderAllowed } from "../inbound/access-policy.js";
import { storeOverride } from "./override-commands.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

const VALID = ELEVATED_LEVELS.join("|");

/** The global allowFrom list of a channel (Discord falls back to its DM allowlist, as in OpenClaw). */
function globalList(cfg: ResolvedConfig, channel: string) {
  const elevated = cfg.config.tools?.elevated as ElevatedConfig | undefined;
  const own = elevatedAllowList(elevated, channel);
  if (own || channel !== "discord") return own;
  const dm = (cfg.config.channels as Record<string, { dm?: { allowFrom?: unknown } }> | undefined)
    ?.discord?.dm?.allowFrom;
  return Array.isArray(dm) ? (dm as Array<string | number>) : undefined;
}

/** Why this sender may not change the elevated level (undefined: they may). */
export function elevatedSenderRefusal(
  cfg: ResolvedConfig,
  request: CommandRequest,
): string | undefined {
  if (request.chatType === "operator") return undefined;
  const sender = {
    id: request.senderId,
    ...(request.senderUsername ? { username: request.senderUsername } : {}),
  };
  const scope = { channel: request.channel, groups: cfg.config.accessGroups };
  const list = globalList(cfg, request.channel);
  if (!list || !senderAllowed(list, sender, scope)) {
    return `You are not allowed to use /elevated: tools.elevated.allowFrom.${request.channel} does not name you (sender ${request.senderId}).`;
  }
  const agent = findAgent(cfg, request.agentId)?.entry.tools?.elevated as
    | ElevatedConfig
    | undefined;
  if (agent?.allowFrom === undefined) return undefined;
  const agentList = elevatedAllowList(agent, request.channel);
  return agentList && senderAllowed(agentList, sender, scope)
    ? undefined
    : `You are not allowed to use /elevated with agent ${request.agentId}: its tools.elevated.allowFrom.${request.channel} does not name you (sender ${request.senderId}).`;
}

function effect(level: string, sandboxed: boolean): string {
  const where = sandboxed
    ? "exec runs on the gateway host, outside the sandbox"
    : "this agent is not sandboxed, so exec already runs on the host";
  if (level === "off") return "Elevated mode disabled.";
  const approvals = level === "full" ? "exec approvals are skipped" : "exec approvals still apply";
  return `Elevated mode set to ${level} for this session: ${where}; ${approvals}.`;
}

async function elevated(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const deps = await host.runtimeDeps();
  const cfg = deps.config;
  const store = deps.stores.forAgent(request.agentId);
  const arg = request.args.trim().toLowerCase().replace(/^:/, "");
  const sandbox = resolveSessionSandbox({
    cfg,
    agentId: request.agentId,
    sessionKey: request.sessionKey,
  });
  if (!arg) {
    const level = effectiveElevatedLevel({
      cfg,
      agentId: request.agentId,
      sessionLevel: store.get(request.sessionKey)?.elevatedLevel,
    });
    const available = elevatedAvailability(cfg, request.agentId);
    const note = available.ok ? "" : ` (${available.reason})`;
    return { text: `Elevated mode: ${level}${note}. Set it with /elevated <${VALID}>.` };
  }
  if (!isElevatedLevel(arg)) {
    return {
      text: `Unknown elevated level "${request.args.trim()}". Valid: ${ELEVATED_LEVELS.join(", ")}.`,
    };
  }
  const available = elevatedAvailability(cfg, request.agentId);
  if (!available.ok) return { text: `/elevated refused: ${available.reason}.` };
  const refusal = elevatedSenderRefusal(cfg, request);
  if (refusal) return { text: refusal };
  storeOverride(store, request.sessionKey, { elevatedLevel: arg });
  host.announce?.(request.sessionKey, "patch");
  return { text: effect(arg, sandbox.sandboxed) };
}

/** The elevated command definitions. */
export const elevatedCommands: CommandDefinition[] = [
  {
    name: "elevated",
    aliases: ["elev"],
    args: VALID,
    description: "show or set this session's elevated mode (a sandboxed agent's exec on the host)",
    changesState: true,
    run: elevated,
  },
];
