// `accessGroup:<name>` entries in sender allowlists: a named group of `accessGroups` stands for its
// members on the channel being checked (`members[channel]` plus `members["*"]`). Fail closed: a
// group that is missing, of a type this gateway cannot resolve (a Discord channel audience), or
// named by an empty reference authorizes nobody; a member entry that is itself a reference or "*"
// authorizes nobody either (a group is never a way to allow everyone).
import type { AccessGroupsConfig } from "../../protocol/config/index.js";

/** The prefix of an allowlist entry that names an access group. */
export const ACCESS_GROUP_PREFIX = "accessGroup:";

/** Where an allowlist is checked: the channel and the config's groups. */
export interface AccessGroupScope {
  channel: string;
  groups: AccessGroupsConfig | undefined;
}

/** The group name an allowlist entry references, or undefined when the entry is not a reference
 *  (the prefix is matched case-insensitively; the name is exact). */
export function accessGroupName(entry: string | number): string | undefined {
  if (typeof entry !== "string") return undefined;
  const text = entry.trim();
  if (text.slice(0, ACCESS_GROUP_PREFIX.length).toLowerCase() !== ACCESS_GROUP_PREFIX.toLowerCase())
    return undefined;
  return text.slice(ACCESS_GROUP_PREFIX.length).trim();
}

/** The member entries a named group contributes on the scope's channel (none when unresolvable). */
export function accessGroupMembers(
  name: string,
  scope: AccessGroupScope | undefined,
): Array<string | number> {
  const groups = scope?.groups;
  if (!scope || !name || !groups || !Object.hasOwn(groups, name)) return [];
  const group = groups[name];
  if (group?.type !== "message.senders") return [];
  const members: Record<string, unknown> = group.members ?? {};
  const own = Object.hasOwn(members, scope.channel) ? members[scope.channel] : undefined;
  return [members["*"], own]
    .flatMap((list) => (Array.isArray(list) ? (list as Array<string | number>) : []))
    .filter(
      (entry) =>
        (typeof entry === "string" || typeof entry === "number") &&
        String(entry).trim() !== "*" &&
        accessGroupName(entry) === undefined,
    );
}

/** An allowlist with every `accessGroup:` reference replaced by the group's members here. */
export function expandAccessGroups(
  entries: ReadonlyArray<string | number>,
  scope: AccessGroupScope | undefined,
): Array<string | number> {
  return entries.flatMap((entry) => {
    const name = accessGroupName(entry);
    return name === undefined ? [entry] : accessGroupMembers(name, scope);
  });
}
