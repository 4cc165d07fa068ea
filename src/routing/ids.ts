// Id normalization shared by routing, session keys and the agent roster.
// Same algorithm as OpenClaw so ids written by either system compare equal.

/** Account used when a channel has a single login or none is named. */
export const DEFAULT_ACCOUNT_ID = "default";
/** Agent used when no agent is configured at all. */
export const DEFAULT_AGENT_ID = "main";
/** Default `session.mainKey`: direct chats collapse to `agent:<id>:main`. */
export const DEFAULT_MAIN_KEY = "main";

const SIMPLE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
const BLOCKED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function normalizeId(raw: unknown, fallback: string): string {
  const trimmed = typeof raw === "string" ? raw.trim() : "";
  if (trimmed === "") return fallback;
  if (SIMPLE_ID.test(trimmed)) {
    const lower = trimmed.toLowerCase();
    return BLOCKED_KEYS.has(lower) ? fallback : lower;
  }
  const slug = trimmed
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug === "" || BLOCKED_KEYS.has(slug) ? fallback : slug;
}

/** Normalizes an agent id (`"My Agent!"` → `my-agent`); unusable input becomes `main`. */
export function normalizeAgentId(raw: unknown): string {
  return normalizeId(raw, DEFAULT_AGENT_ID);
}

/** Normalizes a channel account id (`" BIZ "` → `biz`); empty or unusable input becomes `default`. */
export function normalizeAccountId(raw: unknown): string {
  return normalizeId(raw, DEFAULT_ACCOUNT_ID);
}

/** Normalizes `session.mainKey`: trimmed and lowercased, `main` when empty. */
export function normalizeMainKey(raw: unknown): string {
  const trimmed = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  return trimmed === "" ? DEFAULT_MAIN_KEY : trimmed;
}
