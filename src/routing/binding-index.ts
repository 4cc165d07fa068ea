// The binding index: per channel, per account, one bucket per tier, so resolving a route is a handful
// of Map lookups whatever the number of bindings. Built once per config (see route-context.ts).

import type { CompiledBinding } from "./binding-compile.js";
import { peerLookupKind } from "./chat-type.js";

/** Candidate bindings of one (channel, account) pair, split by tier, each list in config order. */
export interface TierBuckets {
  /** Exact peers by lookup kind (`direct` or `group`; `channel` peers are stored as `group`), then id. */
  byPeer: Map<string, Map<string, CompiledBinding[]>>;
  /** Wildcard peers (`id: "*"`), keyed `direct` or `group`. */
  byPeerWildcard: Map<string, CompiledBinding[]>;
  /** Guild + roles bindings, keyed by guild id. */
  byGuildWithRoles: Map<string, CompiledBinding[]>;
  byGuild: Map<string, CompiledBinding[]>;
  byTeam: Map<string, CompiledBinding[]>;
  /** Account-specific bindings without peer/guild/team. */
  byAccount: CompiledBinding[];
  /** `accountId: "*"` bindings without peer/guild/team. */
  byChannel: CompiledBinding[];
}

interface ChannelEntry {
  /** Account-specific bindings by account id, in config order. */
  accountBindings: Map<string, CompiledBinding[]>;
  /** `"*"` bindings, in config order. */
  anyAccountBindings: CompiledBinding[];
  /** Buckets of accounts named by some binding, built on first use. */
  accountBuckets: Map<string, TierBuckets>;
  /** Buckets for every other account (only `"*"` bindings apply). */
  anyAccountBuckets: TierBuckets;
}

/** Every route binding of a config, grouped by channel. */
export type BindingIndex = Map<string, ChannelEntry>;

/** The list stored under `key`, created empty on first use. */
function listAt<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

/** Sorts a (channel, account) pair's candidates into tier buckets; input must be in config order. */
function buildTierBuckets(bindings: readonly CompiledBinding[]): TierBuckets {
  const buckets: TierBuckets = {
    byPeer: new Map(),
    byPeerWildcard: new Map(),
    byGuildWithRoles: new Map(),
    byGuild: new Map(),
    byTeam: new Map(),
    byAccount: [],
    byChannel: [],
  };
  for (const binding of bindings) {
    switch (binding.tier) {
      case "binding.peer":
        if (binding.peer) {
          const kind = peerLookupKind(binding.peer.kind);
          let byId = buckets.byPeer.get(kind);
          if (!byId) {
            byId = new Map();
            buckets.byPeer.set(kind, byId);
          }
          listAt(byId, binding.peer.id).push(binding);
        }
        break;
      case "binding.peer.wildcard":
        if (binding.peer)
          listAt(buckets.byPeerWildcard, peerLookupKind(binding.peer.kind)).push(binding);
        break;
      case "binding.guild+roles":
        listAt(buckets.byGuildWithRoles, binding.guildId).push(binding);
        break;
      case "binding.guild":
        listAt(buckets.byGuild, binding.guildId).push(binding);
        break;
      case "binding.team":
        listAt(buckets.byTeam, binding.teamId).push(binding);
        break;
      case "binding.account":
        buckets.byAccount.push(binding);
        break;
      case "binding.channel":
        buckets.byChannel.push(binding);
        break;
    }
  }
  return buckets;
}

/** Stable merge of two config-ordered lists by source index. */
function mergeInConfigOrder(
  first: readonly CompiledBinding[],
  second: readonly CompiledBinding[],
): CompiledBinding[] {
  const merged: CompiledBinding[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    if (first[i].index <= second[j].index) merged.push(first[i++]);
    else merged.push(second[j++]);
  }
  while (i < first.length) merged.push(first[i++]);
  while (j < second.length) merged.push(second[j++]);
  return merged;
}

/** Groups valid bindings (in config order) by channel and account pattern. */
export function buildBindingIndex(bindings: readonly CompiledBinding[]): BindingIndex {
  const grouped = new Map<
    string,
    { byAccount: Map<string, CompiledBinding[]>; any: CompiledBinding[] }
  >();
  for (const binding of bindings) {
    let entry = grouped.get(binding.channel);
    if (!entry) {
      entry = { byAccount: new Map(), any: [] };
      grouped.set(binding.channel, entry);
    }
    if (binding.accountPattern === "*") entry.any.push(binding);
    else listAt(entry.byAccount, binding.accountPattern).push(binding);
  }
  const index: BindingIndex = new Map();
  for (const [channel, entry] of grouped) {
    index.set(channel, {
      accountBindings: entry.byAccount,
      anyAccountBindings: entry.any,
      accountBuckets: new Map(),
      anyAccountBuckets: buildTierBuckets(entry.any),
    });
  }
  return index;
}

/**
 * Tier buckets for a normalized (channel, account) pair: that account's bindings merged with the `"*"`
 * ones in config order. Undefined when no binding names the channel.
 */
export function lookupTierBuckets(
  index: BindingIndex,
  channel: string,
  accountId: string,
): TierBuckets | undefined {
  const entry = index.get(channel);
  if (!entry) return undefined;
  const cached = entry.accountBuckets.get(accountId);
  if (cached) return cached;
  const own = entry.accountBindings.get(accountId);
  if (!own) return entry.anyAccountBuckets;
  const buckets = buildTierBuckets(mergeInConfigOrder(own, entry.anyAccountBindings));
  entry.accountBuckets.set(accountId, buckets);
  return buckets;
}
