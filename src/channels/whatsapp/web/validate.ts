// The web transport's account check: its settings resolve (authDir a path, a known ackReaction
// shape). Linking is not checked here: an account that is not linked yet starts and says so in its
// status (run `pincer channels login --channel whatsapp --account <id>`).
import type { ChannelAccountConfig } from "../../index.js";
import { resolveWebSettings } from "./settings.js";

/** A clear error naming what is wrong in a web account's settings, or undefined. */
export function validateWebAccount(
  config: ChannelAccountConfig,
  env: Record<string, string | undefined>,
): string | undefined {
  // The state dir and account id only shape the default auth dir; any values check the rest.
  const result = resolveWebSettings({ config, env, stateDir: "/", accountId: "account" });
  return result.ok ? undefined : `whatsapp: ${result.error}`;
}
