// The method registry: one group per file, merged into one name → handler map.
import type { MethodHandler } from "../context.js";
import { agentMethods } from "./agent.js";
import { channelMethods } from "./channels.js";
import { chatMethods } from "./chat.js";
import { configMethods } from "./config.js";
import { sessionMethods } from "./sessions.js";
import { systemMethods } from "./system.js";

/** Every method the gateway serves. */
export function createMethodRegistry(): Map<string, MethodHandler> {
  return new Map(
    Object.entries({
      ...systemMethods,
      ...agentMethods,
      ...chatMethods,
      ...sessionMethods,
      ...configMethods,
      ...channelMethods,
    }),
  );
}
