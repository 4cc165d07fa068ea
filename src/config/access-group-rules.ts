// `accessGroup:<name>` references must name a group of `accessGroups`: a reference to a missing
// group is an error naming the entry (it would authorize nobody, silently). A reference to a group
// this gateway cannot resolve (a Discord channel audience) and a reference inside a group's own
// members are warnings: both authorize nobody. Pure over the config value.
import { accessGroupName } from "../channels/inbound/access-groups.js";
import { closestMatch } from "../lib/edit-distance.js";
import { isPlainObject, type PathSegment } from "./config-path.js";
import type { RuleIssue } from "./isolation-rules.js";

/** The sections whose sender allowlists may hold `accessGroup:` entries. */
const REFERRING_SECTIONS = ["channels", "commands"] as const;

function visitEntries(
  value: unknown,
  segments: PathSegment[],
  found: (entry: string, segments: PathSegment[]) => void,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === "string") found(item, [...segments, index]);
      else visitEntries(item, [...segments, index], found);
    });
  } else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value))
      visitEntries(child, [...segments, key], found);
  }
}

/** The issues of every `accessGroup:` entry in `channels` and `commands` (and inside groups). */
export function checkAccessGroupRefs(config: unknown): RuleIssue[] {
  if (!isPlainObject(config)) return [];
  const groups = isPlainObject(config.accessGroups) ? config.accessGroups : {};
  const known = Object.keys(groups);
  const issues: RuleIssue[] = [];
  for (const section of REFERRING_SECTIONS) {
    visitEntries(config[section], [section], (entry, segments) => {
      const name = accessGroupName(entry);
      if (name === undefined) return;
      if (!Object.hasOwn(groups, name)) {
        const suggestion = name ? closestMatch(name, known) : undefined;
        const list = known.length > 0 ? `defined: ${known.join(", ")}` : "none is defined";
        issues.push({
          severity: "error",
          segments,
          message:
            `"${entry}" names no access group (${list})` +
            (suggestion ? `; did you mean accessGroup:${suggestion}?` : "") +
            ` — add accessGroups.${name || "<name>"} or remove the entry`,
        });
        return;
      }
      const group = groups[name];
      if (!isPlainObject(group) || group.type !== "message.senders") {
        issues.push({
          severity: "warning",
          segments,
          message: `"${entry}": only "message.senders" groups are resolved here; this entry authorizes nobody`,
        });
      }
    });
  }
  visitEntries(groups, ["accessGroups"], (entry, segments) => {
    if (accessGroupName(entry) === undefined) return;
    issues.push({
      severity: "warning",
      segments,
      message: `"${entry}": a group's members are sender ids; a reference to a group there authorizes nobody`,
    });
  });
  return issues;
}
