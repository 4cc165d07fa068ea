// Checks a pasted Telegram bot token before it is saved: one getMe against the Bot API (the config's
// `channels.telegram.apiRoot` when set, else api.telegram.org), as the adapter's probe does. A few
// seconds at most; the result is a value (bot name, or the error) and never throws.
import { Api } from "grammy";
import type { LoadedConfig } from "../../config/index.js";

/** What getMe said about a token. */
export type TelegramProbe = { ok: true; username: string } | { ok: false; error: string };

/** Seconds one probe may take. */
const PROBE_TIMEOUT_SECONDS = 8;

/** The Bot API root the gateway would use for the default account. */
export function telegramApiRoot(loaded: LoadedConfig): string | undefined {
  const root = (loaded.config.channels?.telegram as { apiRoot?: unknown } | undefined)?.apiRoot;
  return typeof root === "string" && root.trim() !== ""
    ? root.trim().replace(/\/+$/, "")
    : undefined;
}

/** Asks Telegram who the token's bot is. */
export async function probeTelegramToken(params: {
  token: string;
  apiRoot?: string;
}): Promise<TelegramProbe> {
  const api = new Api(params.token, {
    ...(params.apiRoot ? { apiRoot: params.apiRoot } : {}),
    timeoutSeconds: PROBE_TIMEOUT_SECONDS,
  });
  try {
    const me = await api.getMe();
    return { ok: true, username: me.username };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
