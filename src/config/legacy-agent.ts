// The legacy top-level `agent` block (the single-agent form of `agents.defaults`), folded the way
// OpenClaw's legacy config migration does: the keys that moved to `tools` go there (`agent.tools`,
// `agent.elevated` → `tools.elevated`, `agent.bash` → `tools.exec`, `agent.sandbox.tools` /
// `agent.subagents.tools` → `tools.sandbox.tools` / `tools.subagents.tools`), `agent.modelFallbacks`
// becomes `model.fallbacks`, and every other key fills what `agents.defaults` leaves unset.

import { isPlainObject, type PathSegment } from "./config-path.js";

type PlainObject = Record<string, unknown>;

/**
 * Folds `under` beneath `over`, filling only what is missing, recursively (OpenClaw's
 * `mergeMissing`): `over` wins per key at every depth of plain objects; scalars and arrays are
 * leaves (a `fallbacks` list is never concatenated).
 */
export function mergeMissing(over: PlainObject, under: PlainObject): PlainObject {
  const merged: PlainObject = { ...over };
  for (const [key, value] of Object.entries(under)) {
    const current = merged[key];
    if (current === undefined) merged[key] = value;
    else if (isPlainObject(current) && isPlainObject(value))
      merged[key] = mergeMissing(current, value);
  }
  return merged;
}

/** The legacy keys that belong to `tools` in the current shape: legacy key → path under `tools`. */
function toolsPart(legacy: PlainObject): PlainObject {
  const part: PlainObject = isPlainObject(legacy.tools) ? { ...legacy.tools } : {};
  if (legacy.elevated !== undefined) part.elevated = legacy.elevated;
  if (legacy.bash !== undefined) part.exec = legacy.bash;
  for (const key of ["sandbox", "subagents"]) {
    const block = legacy[key];
    if (isPlainObject(block) && block.tools !== undefined) part[key] = { tools: block.tools };
  }
  return part;
}

/** The legacy keys that stay agent defaults, `modelFallbacks` folded into `model`; `moved` says
 *  which folded values are written elsewhere in the block (a string `model` now under `primary`,
 *  `modelFallbacks` now `model.fallbacks`). */
function defaultsPart(
  legacy: PlainObject,
  modern: PlainObject,
): { part: PlainObject; moved: { primary: boolean; fallbacks: boolean } } {
  const { tools: _t, elevated: _e, bash: _b, modelFallbacks, ...rest } = legacy;
  for (const key of ["sandbox", "subagents"]) {
    const block = rest[key];
    if (isPlainObject(block) && block.tools !== undefined) {
      const { tools: _moved, ...kept } = block;
      rest[key] = kept;
    }
  }
  // A string model becomes { primary } only where it has to merge with an object.
  const needsObject = Array.isArray(modelFallbacks) || isPlainObject(modern.model);
  const primary = typeof rest.model === "string" && needsObject;
  if (primary) rest.model = { primary: rest.model };
  let fallbacks = false;
  if (Array.isArray(modelFallbacks)) {
    const model = isPlainObject(rest.model) ? rest.model : {};
    fallbacks = model.fallbacks === undefined;
    rest.model = fallbacks ? { ...model, fallbacks: modelFallbacks } : model;
  }
  return { part: rest, moved: { primary, fallbacks } };
}

/** Where each value folded in from the legacy block is written in the file: defaults path (dotted)
 *  → file path, for the values `modern` leaves unset (the ones the legacy block supplies). */
function legacyOrigins(
  part: PlainObject,
  modern: PlainObject,
  at: PathSegment[] = [],
): Map<string, PathSegment[]> {
  const origins = new Map<string, PathSegment[]>();
  for (const [key, value] of Object.entries(part)) {
    const current = modern[key];
    const path = [...at, key];
    if (current === undefined) origins.set(path.join("."), ["agent", ...path]);
    else if (isPlainObject(current) && isPlainObject(value))
      for (const [inner, origin] of legacyOrigins(value, current, path)) origins.set(inner, origin);
  }
  return origins;
}

/** Inputs of {@link foldLegacyAgent}: the file's `agent`, `agents.defaults` and `tools`. */
export interface FoldLegacyAgentParams {
  legacy: unknown;
  defaults: unknown;
  tools: unknown;
}

/** `agents.defaults` and `tools` with the legacy block folded under them, and which top-level
 *  defaults keys came from the legacy block (for config paths). */
export function foldLegacyAgent(params: FoldLegacyAgentParams): {
  defaults: PlainObject;
  tools: PlainObject | undefined;
  legacyKeys: Set<string>;
  /** Defaults path (dotted, e.g. `model.fallbacks`) → where the legacy block writes that value. */
  legacyOrigins: Map<string, PathSegment[]>;
} {
  const modern = isPlainObject(params.defaults) ? params.defaults : {};
  const tools = isPlainObject(params.tools) ? params.tools : undefined;
  if (!isPlainObject(params.legacy))
    return { defaults: modern, tools, legacyKeys: new Set(), legacyOrigins: new Map() };
  const { part: legacy, moved: folded } = defaultsPart(params.legacy, modern);
  const moved = toolsPart(params.legacy);
  const legacyKeys = new Set(Object.keys(legacy).filter((key) => modern[key] === undefined));
  const origins = legacyOrigins(legacy, modern);
  if (folded.primary && (origins.has("model") || origins.has("model.primary")))
    origins.set("model.primary", ["agent", "model"]);
  if (folded.fallbacks && (origins.has("model") || origins.has("model.fallbacks")))
    origins.set("model.fallbacks", ["agent", "modelFallbacks"]);
  return {
    defaults: mergeMissing(modern, legacy),
    tools: Object.keys(moved).length > 0 ? mergeMissing(tools ?? {}, moved) : tools,
    legacyKeys,
    legacyOrigins: origins,
  };
}
