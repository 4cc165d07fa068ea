// The legacy top-level `agent` block (the single-agent form of `agents.defaults`), folded the way
// OpenClaw's legacy config migration does: the keys that moved to `tools` go there (`agent.tools`,
// `agent.elevated` → `tools.elevated`, `agent.bash` → `tools.exec`, `agent.sandbox.tools` /
// `agent.subagents.tools` → `tools.sandbox.tools` / `tools.subagents.tools`), `agent.modelFallbacks`
// becomes `model.fallbacks`, and every other key fills what `agents.defaults` leaves unset.

import { isPlainObject } from "./config-path.js";

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

/** The legacy keys that stay agent defaults, `modelFallbacks` folded into `model`. */
function defaultsPart(legacy: PlainObject, modern: PlainObject): PlainObject {
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
  if (typeof rest.model === "string" && needsObject) rest.model = { primary: rest.model };
  if (Array.isArray(modelFallbacks)) {
    const model = isPlainObject(rest.model) ? rest.model : {};
    rest.model = model.fallbacks === undefined ? { ...model, fallbacks: modelFallbacks } : model;
  }
  return rest;
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
} {
  const modern = isPlainObject(params.defaults) ? params.defaults : {};
  const tools = isPlainObject(params.tools) ? params.tools : undefined;
  if (!isPlainObject(params.legacy)) return { defaults: modern, tools, legacyKeys: new Set() };
  const legacy = defaultsPart(params.legacy, modern);
  const moved = toolsPart(params.legacy);
  const legacyKeys = new Set(Object.keys(legacy).filter((key) => modern[key] === undefined));
  return {
    defaults: mergeMissing(modern, legacy),
    tools: Object.keys(moved).length > 0 ? mergeMissing(tools ?? {}, moved) : tools,
    legacyKeys,
  };
}
