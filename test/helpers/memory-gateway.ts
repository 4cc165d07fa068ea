// A gateway sandbox whose one chat channel is an open in-memory channel (any sender may DM), its
// default account up: the setup of every test that drives a channel turn end to end.
import type { StartGatewayOptions } from "../../src/gateway/index.js";
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import { createGatewaySandbox, type GatewaySandbox } from "./gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./memory-channel.js";

/** `channels` of a config with the memory channel open to everyone. */
export const OPEN_MEMORY_CHANNELS = {
  memory: { dmPolicy: "open", allowFrom: ["*"] },
} as OpenClawConfig["channels"];

/** Starts the sandbox with the memory channel loaded and waits for its default account. */
export async function startOpenMemoryGateway(
  params: { options?: Omit<Partial<StartGatewayOptions>, "channels"> } = {},
): Promise<{ box: GatewaySandbox; memory: MemoryChannel }> {
  const memory = createMemoryChannel();
  const box = await createGatewaySandbox({
    config: () => ({ channels: OPEN_MEMORY_CHANNELS }),
    options: { ...params.options, channels: { loaders: { memory: async () => memory.adapter } } },
  });
  await memory.waitForAccount("default");
  return { box, memory };
}
