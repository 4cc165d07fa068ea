// PLACEHOLDER until the web transport lands: the web transport's account check.
import type { ChannelAccountConfig } from "../../index.js";

/** A clear error naming what is missing in a web account's settings, or undefined. */
export function validateWebAccount(
  _config: ChannelAccountConfig,
  _env: Record<string, string | undefined>,
): string | undefined {
  return "the WhatsApp web transport is not built yet";
}
