// PLACEHOLDER until the web transport lands: starts one web account.
import type { ChannelAccountContext, ChannelAccountRuntime } from "../../index.js";

/** Starts one WhatsApp web account. */
export async function startWebAccount(
  _context: ChannelAccountContext,
): Promise<ChannelAccountRuntime> {
  throw new Error("the WhatsApp web transport is not built yet");
}
