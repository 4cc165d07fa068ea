// The longest text one outbound message of an account may carry: the platform's limit, lowered by
// the account's `textChunkLimit` (4000 when the platform names none).
import type { ChannelAccountConfig, ChannelCapabilities } from "../types.js";

const DEFAULT_MAX_TEXT = 4000;

/** The chunk size of replies on this account. */
export function replyTextLimit(
  capabilities: ChannelCapabilities | undefined,
  config: ChannelAccountConfig,
): number {
  return Math.min(
    capabilities?.maxTextLength ?? DEFAULT_MAX_TEXT,
    typeof config.textChunkLimit === "number" ? config.textChunkLimit : Number.POSITIVE_INFINITY,
  );
}
