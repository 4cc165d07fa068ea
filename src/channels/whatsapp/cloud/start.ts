// PLACEHOLDER until the cloud transport lands: starts one cloud account.
import type { ChannelAccountContext, ChannelAccountRuntime } from "../../index.js";

/** Starts one WhatsApp cloud account. */
export async function startCloudAccount(
  _context: ChannelAccountContext,
): Promise<ChannelAccountRuntime> {
  throw new Error("the WhatsApp cloud transport is not built yet");
}
