// A session store's in-memory index, shared by the file and PostgreSQL stores: entries by key plus
// their recency order (newest first), so lookups, counts and listings never touch the disk or the
// database. The stores decide what is durable; this only keeps what they placed.
import { countAgentKeys, keyBelongsToAgent } from "./agent-keys.js";
import { RecencyList, type RecencyNode, recencyNode } from "./recency.js";
import type { SessionEntry } from "./types.js";

/** Options of a listing. */
export interface ListSessionsOptions {
  /** Only sessions updated in the last N minutes. */
  activeMinutes?: number;
  limit?: number;
  /** Only keys of this agent (`agent:<id>:…`; non-agent keys such as `global` always match). */
  agentId?: string;
}

/** One row of a listing. */
export interface SessionListItem {
  key: string;
  entry: Readonly<SessionEntry>;
}

/** Entries by key, in recency order. */
export class SessionIndex {
  private readonly nodes = new Map<string, RecencyNode>();
  private readonly order = new RecencyList();

  /** Fills an empty index with loaded entries (one sort, then appends). */
  load(entries: Iterable<readonly [string, SessionEntry]>): void {
    const loaded: RecencyNode[] = [];
    for (const [key, entry] of entries) {
      const node = recencyNode(key, entry);
      this.nodes.set(key, node);
      loaded.push(node);
    }
    loaded.sort((a, b) => b.entry.updatedAt - a.entry.updatedAt);
    for (const node of loaded) this.order.pushOldest(node);
  }

  /** Number of sessions. */
  get size(): number {
    return this.nodes.size;
  }

  /** The least recently updated session (pruning walks from it). */
  get oldest(): RecencyNode | null {
    return this.order.oldest;
  }

  /** Number of sessions of one agent (keys outside any agent count for each), without listing them. */
  count(agentId: string): number {
    return countAgentKeys(this.nodes.keys(), agentId);
  }

  /** The node of a key. */
  node(key: string): RecencyNode | undefined {
    return this.nodes.get(key);
  }

  /** Whether the index has this key. */
  has(key: string): boolean {
    return this.nodes.has(key);
  }

  /** Every key and entry (snapshots). */
  entries(): Array<[string, SessionEntry]> {
    return Array.from(this.nodes, ([key, node]) => [key, node.entry]);
  }

  /** Sessions, most recently updated first, with `now` for `activeMinutes`. */
  list(options: ListSessionsOptions, now: number): SessionListItem[] {
    const cutoff =
      options.activeMinutes === undefined
        ? Number.NEGATIVE_INFINITY
        : now - options.activeMinutes * 60_000;
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const agentId = options.agentId?.toLowerCase();
    const rows: SessionListItem[] = [];
    for (let node = this.order.newest; node && rows.length < limit; node = node.older) {
      if (node.entry.updatedAt < cutoff) break;
      if (agentId && !keyBelongsToAgent(node.key, agentId)) continue;
      rows.push({ key: node.key, entry: node.entry });
    }
    return rows;
  }

  /** Places `entry` under `key` (replacing and re-ordering an existing one). */
  set(key: string, entry: SessionEntry): void {
    let node = this.nodes.get(key);
    if (node) {
      this.order.unlink(node);
      node.entry = entry;
    } else {
      node = recencyNode(key, entry);
      this.nodes.set(key, node);
    }
    this.order.place(node);
  }

  /** Removes a key; its node, or undefined when unknown. */
  remove(key: string): RecencyNode | undefined {
    const node = this.nodes.get(key);
    if (!node) return undefined;
    this.order.unlink(node);
    this.nodes.delete(key);
    return node;
  }
}
