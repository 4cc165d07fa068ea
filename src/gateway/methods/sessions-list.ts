// `sessions.list` over every agent's index: filter (agent, activity, label, search), sort by one
// column (last activity, key, channel, tokens, model), then one page (`offset`, `limit`) and the
// `total` of matching rows. Reads only the in-memory indexes (never transcripts), and builds a row
// only for the page. The default order (newest first, no search) walks each index's recency list
// just to the page's end and counts the rest by key; a search or another column is one pass over
// the rows keeping the best `offset + limit` in a bounded heap (O(n log k), no full sort).
import type { SessionsListParams, SessionsSortKey } from "../../protocol/gateway/index.js";
import { normalizeAgentId } from "../../routing/index.js";
import type { SessionEntry } from "../../sessions/index.js";
import type { MethodDeps } from "./method-deps.js";

/** One listed session: its key, its agent and the index entry's fields. */
export type SessionRow = { key: string; agentId: string } & Readonly<SessionEntry>;

/** The page `sessions.list` answers with. */
export interface SessionsPage {
  ts: number;
  /** Rows in this page. */
  count: number;
  /** Rows matching the filters, across every page. */
  total: number;
  offset: number;
  sessions: SessionRow[];
}

/** A session of one agent's index (as its store lists it). */
interface Listed {
  key: string;
  entry: Readonly<SessionEntry>;
}

/** A session with its agent, once it is in the page. */
interface Item extends Listed {
  agentId: string;
}

type Compare = (a: Listed, b: Listed) => number;
type Deps = Pick<MethodDeps, "config" | "stores" | "now">;

/** The channel a session last talked on (the Control UI's "channel" column). */
export function sessionChannel(entry: Readonly<SessionEntry>): string {
  return entry.lastChannel ?? entry.deliveryContext?.channel ?? entry.origin?.provider ?? "";
}

function sortValue(sort: SessionsSortKey, { key, entry }: Listed): string | number {
  switch (sort) {
    case "updatedAt":
      return entry.updatedAt;
    case "key":
      return key;
    case "channel":
      return sessionChannel(entry);
    case "tokens":
      return entry.totalTokens ?? (entry.inputTokens ?? 0) + (entry.outputTokens ?? 0);
    case "model":
      return entry.modelOverride ?? entry.model ?? "";
  }
}

/** Page order: the column, then the key (unique), so equal values page stably. */
function comparer(sort: SessionsSortKey, desc: boolean): Compare {
  const sign = desc ? -1 : 1;
  return (a, b) => {
    const left = sortValue(sort, a);
    const right = sortValue(sort, b);
    if (left !== right) return (left < right ? -1 : 1) * sign;
    return (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) * sign;
  };
}

function siftDown(heap: Listed[], worse: Compare, start: number): void {
  let at = start;
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let top = at;
    if (left < heap.length && worse(heap[left]!, heap[top]!) > 0) top = left;
    if (right < heap.length && worse(heap[right]!, heap[top]!) > 0) top = right;
    if (top === at) return;
    [heap[at], heap[top]] = [heap[top]!, heap[at]!];
    at = top;
  }
}

/** The first `k` items in `compare` order: a heap whose root is the worst item kept. */
function firstK(items: readonly Listed[], k: number, compare: Compare): Listed[] {
  if (k >= items.length) return [...items].sort(compare);
  const heap: Listed[] = [];
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      // Sift up.
      for (let at = heap.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (compare(heap[at]!, heap[parent]!) <= 0) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (k > 0 && compare(item, heap[0]!) < 0) {
      heap[0] = item;
      siftDown(heap, compare, 0);
    }
  }
  return heap.sort(compare);
}

function matches(item: Listed, label: string | undefined, search: string | undefined): boolean {
  const { key, entry } = item;
  if (label !== undefined && entry.label !== label) return false;
  if (!search) return true;
  const haystack = `${key} ${entry.label ?? ""} ${entry.displayName ?? ""}`.toLowerCase();
  return haystack.includes(search);
}

function toRow({ key, agentId, entry }: Item): SessionRow {
  return { key, agentId, ...entry };
}

/** Newest first without a search: each agent's recency list walked to the page's end only. */
function newestPage(params: SessionsListParams, agentIds: string[], deps: Deps) {
  const offset = params.offset ?? 0;
  const end = params.limit === undefined ? undefined : offset + params.limit;
  let total = 0;
  const heads: Item[] = [];
  for (const agentId of agentIds) {
    const store = deps.stores.forAgent(agentId);
    const active = params.activeMinutes ? { activeMinutes: params.activeMinutes } : {};
    // Within activeMinutes the walk stops at the cutoff anyway: list those and count them.
    const listed = store.list({
      agentId,
      ...active,
      ...(active.activeMinutes ? {} : { limit: end }),
    });
    total += params.activeMinutes ? listed.length : store.count(agentId);
    const kept = end === undefined ? listed : listed.slice(0, end);
    for (const { key, entry } of kept) heads.push({ key, agentId, entry });
  }
  const ordered = agentIds.length > 1 ? heads.sort(comparer("updatedAt", true)) : heads;
  return { total, rows: ordered.slice(offset, end) };
}

/** Any order or a search: per agent one filtering pass keeping its best `offset + limit` rows in
 *  a bounded heap (no row object per session), then those few merged. */
function sortedPage(params: SessionsListParams, agentIds: string[], deps: Deps) {
  const search = params.search?.trim().toLowerCase();
  const filtered = Boolean(search) || params.label !== undefined;
  const compare = comparer(params.sort ?? "updatedAt", (params.order ?? "desc") === "desc");
  const offset = params.offset ?? 0;
  const end = params.limit === undefined ? Number.POSITIVE_INFINITY : offset + params.limit;
  let total = 0;
  const tops: Item[] = [];
  for (const agentId of agentIds) {
    const listed = deps.stores.forAgent(agentId).list({
      agentId,
      ...(params.activeMinutes ? { activeMinutes: params.activeMinutes } : {}),
    });
    const matching = filtered
      ? listed.filter((item) => matches(item, params.label, search))
      : listed;
    total += matching.length;
    for (const { key, entry } of firstK(matching, end, compare)) tops.push({ key, agentId, entry });
  }
  const ordered = agentIds.length > 1 ? tops.sort(compare) : tops;
  return { total, rows: ordered.slice(offset, end) };
}

/** Answers one `sessions.list` call from the agents' indexes. */
export function listSessionsPage(params: SessionsListParams, deps: Deps): SessionsPage {
  // The resolved roster, the requested id normalized as its ids are ("My Agent" → my-agent).
  const wanted = params.agentId === undefined ? undefined : normalizeAgentId(params.agentId);
  const agentIds = deps
    .config()
    .agents.map((agent) => agent.id)
    .filter((id) => wanted === undefined || id === wanted);
  const newest =
    (params.sort ?? "updatedAt") === "updatedAt" &&
    (params.order ?? "desc") === "desc" &&
    !params.search?.trim() &&
    params.label === undefined;
  const page = newest ? newestPage(params, agentIds, deps) : sortedPage(params, agentIds, deps);
  const sessions = page.rows.map(toRow);
  return {
    ts: deps.now(),
    count: sessions.length,
    total: page.total,
    offset: params.offset ?? 0,
    sessions,
  };
}
