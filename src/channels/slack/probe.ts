// `auth.test` with the bot token: who the bot is (user id, name), in which team, and how long Slack
// took to answer. Used by `channels status --probe` and at start.
import type { ProbeResult } from "../index.js";
import type { SlackWebApi } from "./send.js";
import { SLACK_AUTH_ERRORS, slackErrorCode } from "./send-failure.js";

/** The bot's identity as `auth.test` gives it. */
export interface SlackAuthIdentity {
  userId: string;
  botId?: string;
  user?: string;
  team?: string;
  teamId?: string;
}

/** Calls `auth.test`; the identity, or why not (naming the bot token on an auth error). */
export async function slackAuthTest(
  api: SlackWebApi,
): Promise<
  { ok: true; identity: SlackAuthIdentity } | { ok: false; error: string; auth: boolean }
> {
  try {
    const answer = await api.apiCall("auth.test");
    const userId = answer.user_id;
    if (typeof userId !== "string")
      return { ok: false, error: "auth.test gave no user_id", auth: false };
    const str = (value: unknown) => (typeof value === "string" && value ? value : undefined);
    const botId = str(answer.bot_id);
    const user = str(answer.user);
    const team = str(answer.team);
    const teamId = str(answer.team_id);
    return {
      ok: true,
      identity: {
        userId,
        ...(botId ? { botId } : {}),
        ...(user ? { user } : {}),
        ...(team ? { team } : {}),
        ...(teamId ? { teamId } : {}),
      },
    };
  } catch (err) {
    const code = slackErrorCode(err);
    if (code && SLACK_AUTH_ERRORS.has(code))
      return { ok: false, error: `slack: botToken refused by auth.test (${code})`, auth: true };
    if (code) return { ok: false, error: `slack: auth.test failed (${code})`, auth: false };
    return {
      ok: false,
      error: `slack: auth.test failed: ${err instanceof Error ? err.message : String(err)}`,
      auth: false,
    };
  }
}

/** The status identity of an `auth.test` answer: the bot user, named with its team. */
export function statusIdentity(identity: SlackAuthIdentity) {
  const name = identity.team
    ? `${identity.user ?? identity.userId} (${identity.team})`
    : identity.user;
  return {
    id: identity.userId,
    ...(name ? { name } : {}),
    ...(identity.user ? { username: identity.user } : {}),
  };
}

/** The probe of `channels status --probe`. */
export async function probeSlack(api: SlackWebApi, now: () => number): Promise<ProbeResult> {
  const started = now();
  const result = await slackAuthTest(api);
  if (!result.ok) return { ok: false, error: result.error };
  return {
    ok: true,
    identity: statusIdentity(result.identity),
    latencyMs: Math.max(0, now() - started),
  };
}
