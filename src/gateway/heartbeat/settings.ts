// Heartbeat settings as OpenClaw resolves them: `agents.defaults.heartbeat` merged under each
// agent's own block (when any agent has one, only those agents beat), `every` as a duration
// ("30m" default, "0m" disables), the default prompt, `ackMaxChars` (300), `activeHours`, and the
// HEARTBEAT_OK acknowledgement rule. Pure functions over the config and a time.
import { HEARTBEAT_OK_TOKEN } from "../../agents/system-prompt-sections.js";
import type { ResolvedConfig } from "../../config/index.js";
import type { HeartbeatConfig } from "../../protocol/config/index.js";
import { buildAgentMainSessionKey, toAgentStoreSessionKey } from "../../routing/index.js";

/** OpenClaw's default heartbeat prompt (sent verbatim as the user message). */
export const DEFAULT_HEARTBEAT_PROMPT =
  "Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.";
/** Interval when `every` is unset. */
export const DEFAULT_HEARTBEAT_EVERY = "30m";
/** Characters allowed beside HEARTBEAT_OK for the reply to still count as an ack. */
export const DEFAULT_ACK_MAX_CHARS = 300;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "30m", "1h30m", "90s", "45" (minutes by default); undefined when malformed. */
export function parseDurationMs(text: string, defaultUnit = "m"): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * (UNIT_MS[defaultUnit] ?? 60_000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join("") !== trimmed) return undefined;
  return parts.reduce((sum, part) => sum + Number(part[1]) * (UNIT_MS[part[2]] ?? 0), 0);
}

/** One agent's resolved heartbeat. */
export interface HeartbeatPlan {
  agentId: string;
  sessionKey: string;
  everyMs: number;
  prompt: string;
  ackMaxChars: number;
  activeHours?: { start?: string; end?: string; timezone?: string };
  /** `agents.defaults.userTimezone`, for activeHours timezone "user". */
  userTimezone?: string;
  /** Where a non-OK reply goes: "last" (default: the session's last channel), "none", or a channel. */
  target: string;
  /** Recipient on `target` when it names a channel; its account. */
  to?: string;
  accountId?: string;
}

/** Heartbeat plans of every agent whose interval is above zero (bad `every` → skipped, reported). */
export function resolveHeartbeatPlans(cfg: ResolvedConfig): {
  plans: HeartbeatPlan[];
  problems: string[];
} {
  const defaults: HeartbeatConfig = cfg.defaults.heartbeat ?? {};
  const roster = cfg.agents.map((agent) => ({ id: agent.id, heartbeat: agent.entry.heartbeat }));
  const explicit = roster.some((entry) => entry.heartbeat);
  const plans: HeartbeatPlan[] = [];
  const problems: string[] = [];
  const mainKey = cfg.config.session?.mainKey;
  const userTimezone = cfg.defaults.userTimezone;
  for (const entry of roster) {
    if (explicit && !entry.heartbeat) continue;
    const merged: HeartbeatConfig = { ...defaults, ...entry.heartbeat };
    const everyMs = parseDurationMs(merged.every ?? DEFAULT_HEARTBEAT_EVERY);
    if (everyMs === undefined) {
      problems.push(`agent ${entry.id}: heartbeat.every "${merged.every}" is not a duration`);
      continue;
    }
    if (everyMs <= 0) continue;
    const session = merged.session?.trim();
    plans.push({
      agentId: entry.id,
      sessionKey:
        session && session !== "main"
          ? toAgentStoreSessionKey({ agentId: entry.id, requestKey: session, mainKey })
          : buildAgentMainSessionKey({ agentId: entry.id, mainKey }),
      everyMs,
      prompt: merged.prompt?.trim() || DEFAULT_HEARTBEAT_PROMPT,
      ackMaxChars: merged.ackMaxChars ?? DEFAULT_ACK_MAX_CHARS,
      ...(merged.activeHours ? { activeHours: merged.activeHours } : {}),
      ...(typeof userTimezone === "string" ? { userTimezone } : {}),
      target: merged.target?.trim() || "last",
      ...(merged.to ? { to: String(merged.to) } : {}),
      ...(merged.accountId ? { accountId: merged.accountId } : {}),
    });
  }
  return { plans, problems };
}

function minutesOf(hhmm: string | undefined): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm?.trim() ?? "");
  if (!match) return undefined;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : undefined;
}

/** Whether `nowMs` falls in the plan's active hours (start inclusive, end exclusive, may wrap midnight). */
export function isWithinActiveHours(plan: HeartbeatPlan, nowMs: number): boolean {
  const hours = plan.activeHours;
  const start = minutesOf(hours?.start) ?? 0;
  const end = minutesOf(hours?.end) ?? 24 * 60;
  if (!hours || start === end) return true;
  const zone = hours.timezone === "user" ? plan.userTimezone : hours.timezone;
  const timeZone = zone && zone !== "local" ? zone : undefined;
  const parts = new Intl.DateTimeFormat("en-US", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(new Date(nowMs));
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const now = value("hour") * 60 + value("minute");
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** Classifies a heartbeat reply: an ack (token at start or end, little else) or alert text. */
export function classifyHeartbeatReply(
  text: string,
  ackMaxChars: number,
): { ack: boolean; text: string } {
  const trimmed = text.trim();
  const token = new RegExp(`^[*_\`]*${HEARTBEAT_OK_TOKEN}[*_\`]*[.!]?`);
  const tail = new RegExp(`[*_\`]*${HEARTBEAT_OK_TOKEN}[*_\`]*[.!]?$`);
  let rest: string | undefined;
  if (token.test(trimmed)) rest = trimmed.replace(token, "").trim();
  else if (tail.test(trimmed)) rest = trimmed.replace(tail, "").trim();
  if (rest === undefined) return { ack: false, text: trimmed };
  return rest.length <= ackMaxChars ? { ack: true, text: rest } : { ack: false, text: rest };
}

/** Whether HEARTBEAT.md text is effectively empty (blank lines and markdown headings only). */
export function isEffectivelyEmptyHeartbeatFile(text: string): boolean {
  return text.split("\n").every((line) => line.trim() === "" || /^#+(\s|$)/.test(line.trim()));
}
