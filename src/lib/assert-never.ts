// Exhaustiveness: the `default` of a switch over a union calls `assertNever`, so a member added to
// the union and handled nowhere is a type error at every such switch instead of a silent drop.

/** Unreachable for typed input: a compile error when a union member is unhandled; throws (a bug)
 *  when an untyped value gets through anyway. */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
