// The index's recency order: a doubly linked list sorted by `updatedAt`, newest first. A touch (updatedAt =
// now) moves a node to the front in O(1), so listing recent sessions walks only the rows it returns and
// pruning walks only the ones it removes — no sort per list, even at 100,000 sessions. Nodes placed out of
// order (an explicit old updatedAt, bulk imports) wait in a side buffer that is sorted and merged in one
// pass before the next walk, so n such placements cost O(n log n), not O(n²).
import type { SessionEntry } from "./types.js";

/** One session in the index. */
export interface RecencyNode {
  key: string;
  entry: SessionEntry;
  newer: RecencyNode | null;
  older: RecencyNode | null;
  /** Index in the out-of-order buffer, or -1 when linked (or detached). */
  slot: number;
}

/** Creates a detached node. */
export function recencyNode(key: string, entry: SessionEntry): RecencyNode {
  return { key, entry, newer: null, older: null, slot: -1 };
}

/** Nodes ordered by `entry.updatedAt`, newest first. */
export class RecencyList {
  private head: RecencyNode | null = null;
  private tail: RecencyNode | null = null;
  private readonly unplaced: RecencyNode[] = [];

  /** The most recently updated node (settles out-of-order placements first). */
  get newest(): RecencyNode | null {
    this.settle();
    return this.head;
  }

  /** The least recently updated node (settles out-of-order placements first). */
  get oldest(): RecencyNode | null {
    this.settle();
    return this.tail;
  }

  /** Places a detached node: O(1) at either end; elsewhere it is deferred to the next walk. */
  place(node: RecencyNode): void {
    const at = node.entry.updatedAt;
    if (!this.head || at >= this.head.entry.updatedAt) this.linkBefore(node, this.head);
    else if (this.tail && at <= this.tail.entry.updatedAt) this.linkBefore(node, null);
    else {
      node.slot = this.unplaced.length;
      this.unplaced.push(node);
    }
  }

  /** Appends at the old end, for building from a list already sorted newest first. */
  pushOldest(node: RecencyNode): void {
    this.linkBefore(node, null);
  }

  /** Detaches a node, wherever it is. */
  unlink(node: RecencyNode): void {
    if (node.slot >= 0) {
      const last = this.unplaced.pop()!;
      if (last !== node) {
        this.unplaced[node.slot] = last;
        last.slot = node.slot;
      }
      node.slot = -1;
      return;
    }
    if (node.newer) node.newer.older = node.older;
    else this.head = node.older;
    if (node.older) node.older.newer = node.newer;
    else this.tail = node.newer;
    node.newer = null;
    node.older = null;
  }

  /** Merges deferred nodes: sort them newest first, then one pass down the list. */
  private settle(): void {
    if (this.unplaced.length === 0) return;
    const batch = this.unplaced.splice(0).sort((a, b) => b.entry.updatedAt - a.entry.updatedAt);
    let cursor = this.head;
    for (const node of batch) {
      node.slot = -1;
      while (cursor && cursor.entry.updatedAt > node.entry.updatedAt) cursor = cursor.older;
      this.linkBefore(node, cursor);
    }
  }

  /** Inserts `node` just before `next` (toward newer); `next === null` appends at the old end. */
  private linkBefore(node: RecencyNode, next: RecencyNode | null): void {
    const newer = next ? next.newer : this.tail;
    node.older = next;
    node.newer = newer;
    if (next) next.newer = node;
    else this.tail = node;
    if (newer) newer.older = node;
    else this.head = node;
  }
}
