// The cloud transport's account check: every missing or malformed key named at once.
import type { ChannelAccountConfig } from "../../index.js";
import { resolveCloudSettings } from "./settings.js";

/** A clear error naming what is missing in a cloud account's settings, or undefined. */
export function validateCloudAccount(
  config: ChannelAccountConfig,
  env: Record<string, string | undefined>,
): string | undefined {
  const result = resolveCloudSettings({ config, env });
  return result.ok ? undefined : result.error;
}
