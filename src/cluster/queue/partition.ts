// Session → partition: a stable 32-bit FNV-1a hash of the session key modulo the partition count.
// Stable across processes, hosts and restarts (no seed), so every turn of a session lands on the
// same subject and therefore behind the same one-in-flight consumer.

/** FNV-1a (32 bit) of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The partition of a session key (0 … partitions-1). */
export function partitionOf(sessionKey: string, partitions: number): number {
  return fnv1a(sessionKey) % Math.max(1, Math.floor(partitions));
}
