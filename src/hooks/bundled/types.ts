// What a hook shipped with Pincer is: its HOOK.md metadata (in code: the bundle has no hook folders)
// and a factory that builds its handler over the gateway services it needs.
import type { ResolvedConfig } from "../../config/index.js";
import type { Logger } from "../../lib/logger.js";
import type { HookMetadata, InternalHookHandler } from "../types.js";

/** The gateway services a bundled hook may use (passed in; no module state). */
export interface BundledHookServices {
  stateDir: string;
  logger: Logger;
  /** The resolved config current now. */
  config: () => ResolvedConfig;
  now: () => number;
  /** Starts a turn and resolves once it is accepted (its reply is delivered like a heartbeat's). */
  startTurn: (turn: { agentId: string; sessionKey: string; message: string }) => Promise<void>;
}

/** A bundled hook: metadata plus its handler factory. */
export interface BundledHook {
  metadata: HookMetadata;
  create: (services: BundledHookServices) => InternalHookHandler;
}

/** Metadata of a bundled hook with no requirements. */
export function bundledMetadata(params: {
  name: string;
  description: string;
  emoji: string;
  events: string[];
}): HookMetadata {
  return {
    ...params,
    exportName: "default",
    os: [],
    always: false,
    requires: { bins: [], anyBins: [], env: [], config: [] },
  };
}
