// Argument shims for models trained on other tool dialects (`file_path`, `old_string`, …): applied by the
// loop before schema validation through `AgentTool.prepareArguments`.

/** Returns a `prepareArguments` that renames alias keys (`{ file_path: "path" }`) when the canonical key is absent. */
export function renameArgs<T>(aliases: Record<string, string>): (args: unknown) => T {
  return (args: unknown): T => {
    if (!args || typeof args !== "object" || Array.isArray(args)) return args as T;
    const source = args as Record<string, unknown>;
    const renamed = Object.entries(aliases).filter(
      ([alias, canonical]) => alias in source && !(canonical in source),
    );
    if (renamed.length === 0) return args as T;
    const out: Record<string, unknown> = { ...source };
    for (const [alias, canonical] of renamed) {
      out[canonical] = out[alias];
      delete out[alias];
    }
    return out as T;
  };
}
