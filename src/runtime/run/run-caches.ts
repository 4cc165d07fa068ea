// What the runtime keeps between turns, owned by whoever owns the runtime (the gateway, a CLI run)
// and passed in with the other deps: seeded workspaces, bootstrap snapshots, system prompts and
// parsed auth stores. Each cache revalidates against the disk or compares its inputs on every use;
// none changes what a turn sees, only what it costs.
import { BootstrapCache } from "../../agents/bootstrap-cache.js";
import { SeededWorkspaces } from "../../agents/seeded-workspaces.js";
import { MemoryIndexes } from "../../memory/index.js";
import { AuthStoreCache } from "../models/index.js";
import { SystemPromptMemo } from "./prompt-memo.js";

/** The runtime's between-turn caches. */
export interface RunCaches {
  workspaces: SeededWorkspaces;
  bootstrap: BootstrapCache;
  prompts: SystemPromptMemo;
  authStores: AuthStoreCache;
  /** Warm memory_search indexes, one per agent (each re-checks file stamps on every search). */
  memory: MemoryIndexes;
}

/** Fresh, empty caches (one set per runtime). */
export function createRunCaches(): RunCaches {
  return {
    workspaces: new SeededWorkspaces(),
    bootstrap: new BootstrapCache(),
    prompts: new SystemPromptMemo(),
    authStores: new AuthStoreCache(),
    memory: new MemoryIndexes(),
  };
}
