// The warm memory indexes of one runtime (the gateway, a CLI run), one per agent: reused while the
// agent's workspace, extra paths, chunking, store path and embedding model stay the same, replaced
// when they change.
import { MemoryIndex, type MemoryIndexParams } from "./memory-index.js";

function keyOf(params: MemoryIndexParams): string {
  return JSON.stringify([
    params.workspaceDir,
    params.extraPaths,
    params.chunking.tokens,
    params.chunking.overlap,
    params.storePath ?? null,
    params.home ?? null,
    params.embedder?.instanceKey ?? null,
    params.hybrid ?? null,
  ]);
}

/** See the file comment. Owned by whoever owns the runtime; nothing here is global. */
export class MemoryIndexes {
  private readonly byAgent = new Map<string, { key: string; index: MemoryIndex }>();

  /** The agent's index for these settings (the warm one when they did not change). */
  get(params: MemoryIndexParams): MemoryIndex {
    const key = keyOf(params);
    const held = this.byAgent.get(params.agentId);
    if (held && held.key === key) return held.index;
    const index = new MemoryIndex(params);
    this.byAgent.set(params.agentId, { key, index });
    return index;
  }
}
