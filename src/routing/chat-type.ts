// Chat kinds of peers: `dm` is an alias of `direct`, and `group` / `channel` are interchangeable for
// binding matches (Slack and Discord call the same thing a channel, others a group).
import type { ChatType } from "./types.js";

/** Normalizes a peer kind: `direct`/`dm` → `direct`, `group`, `channel`; anything else → `undefined`. */
export function normalizeChatType(raw: unknown): ChatType | undefined {
  if (typeof raw !== "string") return undefined;
  const kind = raw.trim().toLowerCase();
  if (kind === "direct" || kind === "dm") return "direct";
  if (kind === "group" || kind === "channel") return kind;
  return undefined;
}

/** True when a binding peer kind matches an inbound kind (`group` ≡ `channel`, `direct` only `direct`). */
export function peerKindMatches(bindingKind: ChatType, inboundKind: string): boolean {
  if (bindingKind === "direct") return inboundKind === "direct";
  return inboundKind === "group" || inboundKind === "channel";
}

/** Kind used in binding lookup keys: `channel` is stored as `group` so both find the same bucket. */
export function peerLookupKind(kind: ChatType): "direct" | "group" {
  return kind === "direct" ? "direct" : "group";
}
