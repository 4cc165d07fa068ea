// What the Sessions page shows and asks for: a listed session's fields, the list view (agent,
// search, sort, order, page) and its round trip through the route's query string, and the choices
// of the per-session overrides. Pure data and functions: the page element holds the state.
import {
  SESSION_QUEUE_MODES,
  SESSION_THINKING_LEVELS,
  SESSION_VERBOSE_LEVELS,
} from "../../../protocol/gateway/session-levels.js";

/** One `sessions.list` row as the page reads it (other index fields are kept but not shown). */
export interface SessionRow {
  key: string;
  agentId: string;
  sessionId: string;
  updatedAt: number;
  label?: string;
  displayName?: string;
  lastChannel?: string;
  deliveryContext?: { channel?: string };
  origin?: { provider?: string };
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  model?: string;
  modelProvider?: string;
  modelOverride?: string;
  providerOverride?: string;
  thinkingLevel?: string;
  verboseLevel?: string;
  queueMode?: string;
}

/** One `sessions.list` answer. */
export interface SessionsListAnswer {
  total: number;
  offset: number;
  count: number;
  sessions: SessionRow[];
}

/** The columns the table sorts by (the gateway's `sort` names). */
export type SortKey = "key" | "channel" | "updatedAt" | "tokens" | "model";

/** The list the page shows: which agent ("" = all), what search, which order, which page. */
export interface SessionsView {
  agent: string;
  search: string;
  sort: SortKey;
  order: "asc" | "desc";
  offset: number;
  limit: number;
}

/** Table columns in display order, with their header text. */
export const COLUMNS: ReadonlyArray<{ key: SortKey; label: string }> = [
  { key: "key", label: "Key" },
  { key: "channel", label: "Channel" },
  { key: "updatedAt", label: "Last activity" },
  { key: "tokens", label: "Tokens" },
  { key: "model", label: "Model" },
];

/** Page sizes offered. */
export const PAGE_SIZES: readonly number[] = [25, 50, 100, 200];
/** Thinking levels (`thinkingLevel`): the ones sessions.patch takes. */
export const THINKING_LEVELS: readonly string[] = SESSION_THINKING_LEVELS;
/** Tool-call message levels (`verboseLevel`). */
export const VERBOSE_LEVELS: readonly string[] = SESSION_VERBOSE_LEVELS;
/** Queue modes (`queueMode`). */
export const QUEUE_MODES: readonly string[] = SESSION_QUEUE_MODES;

const SORT_KEYS: readonly string[] = COLUMNS.map((column) => column.key);

/** The view a fresh page starts with: every agent, newest first, 50 a page. */
export const DEFAULT_VIEW: SessionsView = {
  agent: "",
  search: "",
  sort: "updatedAt",
  order: "desc",
  offset: 0,
  limit: 50,
};

/** The order a column sorts in first: numbers and times largest first, text A to Z. */
export function firstOrder(sort: SortKey): "asc" | "desc" {
  return sort === "updatedAt" || sort === "tokens" ? "desc" : "asc";
}

function whole(text: string | null, fallback: number, min: number): number {
  const value = text === null ? Number.NaN : Number(text);
  return Number.isInteger(value) && value >= min ? value : fallback;
}

/** Reads a view from the route's query (`agent`, `q`, `sort`, `order`, `offset`, `limit`). */
export function viewFromQuery(query: URLSearchParams | undefined): SessionsView {
  if (!query) return { ...DEFAULT_VIEW };
  const sort = query.get("sort") ?? "";
  const order = query.get("order");
  const limit = whole(query.get("limit"), DEFAULT_VIEW.limit, 1);
  return {
    agent: query.get("agent") ?? "",
    search: query.get("q") ?? "",
    sort: SORT_KEYS.includes(sort) ? (sort as SortKey) : DEFAULT_VIEW.sort,
    order: order === "asc" || order === "desc" ? order : DEFAULT_VIEW.order,
    offset: whole(query.get("offset"), 0, 0),
    limit: PAGE_SIZES.includes(limit) ? limit : DEFAULT_VIEW.limit,
  };
}

/** The query that deep-links a view (defaults left out). */
export function queryOfView(view: SessionsView): Record<string, string> {
  const query: Record<string, string> = {};
  if (view.agent) query.agent = view.agent;
  if (view.search) query.q = view.search;
  if (view.sort !== DEFAULT_VIEW.sort) query.sort = view.sort;
  if (view.order !== DEFAULT_VIEW.order) query.order = view.order;
  if (view.offset) query.offset = String(view.offset);
  if (view.limit !== DEFAULT_VIEW.limit) query.limit = String(view.limit);
  return query;
}

/** Whether two views list the same rows. */
export function sameView(a: SessionsView, b: SessionsView): boolean {
  return (
    a.agent === b.agent &&
    a.search === b.search &&
    a.sort === b.sort &&
    a.order === b.order &&
    a.offset === b.offset &&
    a.limit === b.limit
  );
}

/** `sessions.list` params for a view. */
export function listParams(view: SessionsView): Record<string, unknown> {
  return {
    ...(view.agent ? { agentId: view.agent } : {}),
    ...(view.search.trim() ? { search: view.search.trim() } : {}),
    sort: view.sort,
    order: view.order,
    offset: view.offset,
    limit: view.limit,
  };
}

/** The channel a session last talked on. */
export function channelOf(row: SessionRow): string {
  return row.lastChannel ?? row.deliveryContext?.channel ?? row.origin?.provider ?? "";
}

/** Tokens the session used (the total the index keeps). */
export function tokensOf(row: SessionRow): number {
  return row.totalTokens ?? (row.inputTokens ?? 0) + (row.outputTokens ?? 0);
}

/** The model the session runs: its override, else the last one used. */
export function modelOf(row: SessionRow): string {
  if (row.modelOverride) {
    return row.providerOverride
      ? `${row.providerOverride}/${row.modelOverride}`
      : row.modelOverride;
  }
  if (!row.model) return "";
  return row.modelProvider ? `${row.modelProvider}/${row.model}` : row.model;
}

/** The model override as `provider/model`, "" when the session has none. */
export function modelOverrideOf(row: SessionRow): string {
  if (!row.modelOverride) return "";
  return row.providerOverride ? `${row.providerOverride}/${row.modelOverride}` : row.modelOverride;
}

/** "3 min ago"-style text for a past time. */
export function ago(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return "just now";
  const steps: Array<[number, string]> = [
    [60, "min"],
    [3600, "h"],
    [86_400, "d"],
  ];
  let text = "";
  for (const [size, unit] of steps) {
    if (seconds >= size) text = `${Math.floor(seconds / size)} ${unit} ago`;
  }
  return text;
}
