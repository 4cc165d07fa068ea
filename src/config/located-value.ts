// A config value paired with a tree of source positions, so merged values (from $include) still know
// which file and line every piece came from. Deep merge: objects recurse, arrays and scalars replace.
import type { SourcePosition } from "./config-issue.js";
import { isPlainObject, type PathSegment } from "./config-path.js";

/** Source position of a value and, for containers, of each child. */
export interface OriginTree {
  at: SourcePosition;
  children?: Map<PathSegment, OriginTree>;
}

/** A value with its origins. */
export interface LocatedValue {
  value: unknown;
  origin: OriginTree;
}

/** Deep-merges `over` onto `base` (later wins), merging origin trees the same way. */
export function mergeLocated(base: LocatedValue, over: LocatedValue): LocatedValue {
  if (!isPlainObject(base.value) || !isPlainObject(over.value)) return over;
  // A Map + Object.fromEntries keeps keys like "__proto__" as plain own data (no prototype pollution).
  const entries = new Map(Object.entries(base.value));
  const children = new Map(base.origin.children ?? []);
  for (const [key, child] of Object.entries(over.value)) {
    const overChild: LocatedValue = {
      value: child,
      origin: over.origin.children?.get(key) ?? { at: over.origin.at },
    };
    const baseOrigin = children.get(key);
    const merged =
      entries.has(key) && baseOrigin
        ? mergeLocated({ value: entries.get(key), origin: baseOrigin }, overChild)
        : overChild;
    entries.set(key, merged.value);
    children.set(key, merged.origin);
  }
  return { value: Object.fromEntries(entries), origin: { at: over.origin.at, children } };
}

/** Finds the source position of one value path (`agents.list[1].agentDir`) by walking the tree;
 * lazy on purpose: most loads never ask, and flattening every path up front cost milliseconds. */
export function lookupOrigin(origin: OriginTree, segments: PathSegment[]): SourcePosition {
  let node = origin;
  for (const segment of segments) {
    const child = node.children?.get(segment);
    if (!child) break;
    node = child;
  }
  return node.at;
}
