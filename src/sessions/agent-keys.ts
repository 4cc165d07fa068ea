// Which keys of a store belong to an agent: `agent:<id>:…` keys to their agent, other keys (`global`,
// `hook:…`) to every agent of the store. Shared by the store's listing and its per-agent count (the
// `total` of a paged `sessions.list`, counted without building a row per session).

/** Whether `key` belongs to `agentId` (already lower-case). */
export function keyBelongsToAgent(key: string, agentId: string): boolean {
  if (key.length < 7 || key.slice(0, 6).toLowerCase() !== "agent:") return true;
  const end = key.indexOf(":", 6);
  return end <= 6 || key.slice(6, end).toLowerCase() === agentId;
}

/** How many of `keys` belong to `agentId`; the common `agent:<id>:` prefix is checked first. */
export function countAgentKeys(keys: Iterable<string>, agentId: string): number {
  const id = agentId.toLowerCase();
  const prefix = `agent:${id}:`;
  let count = 0;
  for (const key of keys) {
    if (key.startsWith(prefix) || keyBelongsToAgent(key, id)) count++;
  }
  return count;
}
