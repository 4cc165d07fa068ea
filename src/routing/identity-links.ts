// `session.identityLinks`: one canonical name for the same person across channels, so per-peer DM
// sessions can be shared (`telegram:111` and `discord:222` both become `alice`).

/** `session.identityLinks` as read from config: canonical name → linked ids. */
export type IdentityLinks = Readonly<Record<string, readonly string[]>>;

interface LinkTarget {
  canonical: string;
  order: number;
}

// Lowercased linked id → first canonical (in object order) that lists it. Keyed by the config object.
const linkMaps = new WeakMap<IdentityLinks, Map<string, LinkTarget>>();

function buildLinkMap(links: IdentityLinks): Map<string, LinkTarget> {
  const map = new Map<string, LinkTarget>();
  let order = 0;
  for (const [rawCanonical, ids] of Object.entries(links)) {
    const canonical = rawCanonical.trim();
    if (canonical === "" || !Array.isArray(ids)) continue;
    for (const id of ids) {
      const key = typeof id === "string" ? id.trim().toLowerCase() : "";
      if (key !== "" && !map.has(key)) map.set(key, { canonical, order });
    }
    order += 1;
  }
  return map;
}

function linkMapFor(links: IdentityLinks): Map<string, LinkTarget> {
  let map = linkMaps.get(links);
  if (!map) {
    map = buildLinkMap(links);
    linkMaps.set(links, map);
  }
  return map;
}

/** Inputs for {@link resolveLinkedPeerId}. */
export interface ResolveLinkedPeerIdParams {
  identityLinks: IdentityLinks | null | undefined;
  /** Normalized channel (lowercase). */
  channel: string;
  peerId: string;
}

/**
 * Canonical name for a direct peer, matching either the bare id or `<channel>:<id>` (case-insensitive);
 * the first canonical in config order wins. `undefined` when the peer is not linked.
 */
export function resolveLinkedPeerId(params: ResolveLinkedPeerIdParams): string | undefined {
  const { identityLinks } = params;
  if (!identityLinks || typeof identityLinks !== "object") return undefined;
  const peerId = params.peerId.trim().toLowerCase();
  if (peerId === "") return undefined;
  const map = linkMapFor(identityLinks);
  if (map.size === 0) return undefined;
  const bare = map.get(peerId);
  const scoped = params.channel === "" ? undefined : map.get(`${params.channel}:${peerId}`);
  if (bare && scoped) return bare.order <= scoped.order ? bare.canonical : scoped.canonical;
  return (bare ?? scoped)?.canonical;
}
