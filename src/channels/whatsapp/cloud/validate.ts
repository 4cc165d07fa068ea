// PLACEHOLDER until the cloud transport lands: the cloud transport's account check.
import type { ChannelAccountConfig } from "../../index.js";

/** A clear error naming what is missing in a cloud account's settings, or undefined. */
export function validateCloudAccount(
  _config: ChannelAccountConfig,
  _env: Record<string, string | undefined>,
): string | undefined {
  return "the WhatsApp cloud transport is not built yet";
}
