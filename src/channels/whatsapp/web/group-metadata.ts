// Group metadata (subject, participants with their LID and phone JIDs) fetched through the socket
// and kept for a few minutes per group, so a burst of group messages costs one query. A failed
// query is logged and remembered briefly too (no query storm while WhatsApp refuses).
import type { Logger } from "../../index.js";
import type { GroupMetadata, WhatsAppSocket } from "./socket-seam.js";

const TTL_MS = 5 * 60_000;
const FAILURE_TTL_MS = 30_000;
const MAX_GROUPS = 200;

/** Cached metadata of the groups one account is in. */
export interface GroupMetadataCache {
  /** The group's metadata, or undefined when WhatsApp did not give it. */
  get(groupJid: string): Promise<GroupMetadata | undefined>;
}

/** Inputs for {@link createGroupMetadataCache}. */
export interface GroupMetadataCacheParams {
  socket: () => WhatsAppSocket | undefined;
  log: Logger;
  now: () => number;
}

/** Creates the cache of one account (its socket may change across reconnects). */
export function createGroupMetadataCache(params: GroupMetadataCacheParams): GroupMetadataCache {
  const entries = new Map<
    string,
    { at: number; ttl: number; value: Promise<GroupMetadata | undefined> }
  >();
  return {
    get(groupJid) {
      const now = params.now();
      const cached = entries.get(groupJid);
      if (cached && now - cached.at < cached.ttl) return cached.value;
      const socket = params.socket();
      if (!socket) return Promise.resolve(undefined);
      const entry = {
        at: now,
        ttl: TTL_MS,
        value: Promise.resolve<GroupMetadata | undefined>(undefined),
      };
      entry.value = socket.groupMetadata(groupJid).catch((err: unknown) => {
        entry.ttl = FAILURE_TTL_MS;
        params.log.warn(
          { group: groupJid, error: (err as Error).message },
          "whatsapp: group metadata failed",
        );
        return undefined;
      });
      entries.delete(groupJid);
      entries.set(groupJid, entry);
      if (entries.size > MAX_GROUPS) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return entry.value;
    },
  };
}

/** The phone JID of a LID among a group's participants, when WhatsApp gave it. */
export function phoneJidInGroup(
  metadata: GroupMetadata | undefined,
  lid: string,
): string | undefined {
  const member = metadata?.participants?.find((p) => p.lid === lid || p.id === lid);
  const phone =
    member?.phoneNumber ?? (member?.id.endsWith("@s.whatsapp.net") ? member.id : undefined);
  return phone;
}
