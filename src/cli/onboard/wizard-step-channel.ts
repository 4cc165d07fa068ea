// The wizard's channels section: optionally a Telegram bot (token from @BotFather, masked), checked
// with one getMe before it is accepted; a token Telegram rejects is only kept if the user says so.
import type { LoadedConfig } from "../../config/index.js";
import { checkTelegramToken } from "./flags.js";
import type { ChannelAnswer } from "./wizard-answers.js";
import { type Asked, CANCELLED, type Prompter } from "./wizard-prompts.js";
import {
  probeTelegramToken,
  type TelegramProbe,
  telegramApiRoot,
} from "./wizard-telegram-probe.js";

function hasTelegramToken(loaded: LoadedConfig): boolean {
  const telegram = loaded.config.channels?.telegram as Record<string, unknown> | undefined;
  return telegram?.botToken !== undefined || telegram?.tokenFile !== undefined;
}

/** Asks for a channel; undefined when none is added (or the current one is kept). */
export async function askChannel(
  p: Prompter,
  loaded: LoadedConfig,
): Promise<Asked<ChannelAnswer | undefined>> {
  const configured = hasTelegramToken(loaded);
  const pick = await p.select({
    message: "Connect a chat channel",
    options: [
      {
        value: "telegram",
        label: configured ? "Telegram: replace the bot token" : "Telegram",
        hint: "a bot token from @BotFather",
      },
      {
        value: "skip",
        label: configured ? "Keep the current channels" : "Not now",
        hint: "WebChat works without one",
      },
    ],
    initialValue: configured ? "skip" : "telegram",
  });
  if (pick === CANCELLED) return CANCELLED;
  if (pick === "skip") return undefined;
  const apiRoot = telegramApiRoot(loaded);
  for (;;) {
    const token = await p.password({ message: "Telegram bot token", validate: checkTelegramToken });
    if (token === CANCELLED) return CANCELLED;
    const probe = await p.during<TelegramProbe>(
      "Asking Telegram who this bot is",
      () => probeTelegramToken({ token: token.trim(), ...(apiRoot ? { apiRoot } : {}) }),
      (r) => (r.ok ? `Telegram bot @${r.username}` : `Telegram did not accept it: ${r.error}`),
    );
    const answer: ChannelAnswer = { channel: "telegram", account: "default", token: token.trim() };
    if (probe.ok) return answer;
    const keep = await p.select({
      message: "Telegram could not confirm this token",
      options: [
        { value: "retry", label: "Enter it again" },
        { value: "keep", label: "Save it anyway", hint: "e.g. no network here" },
        { value: "skip", label: "Skip the channel" },
      ],
      initialValue: "retry",
    });
    if (keep === CANCELLED) return CANCELLED;
    if (keep === "keep") return answer;
    if (keep === "skip") return undefined;
  }
}
