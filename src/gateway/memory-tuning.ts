// V8 heap sizing for the long-running daemon, set at run time (no re-exec, no NODE_OPTIONS, which
// accept neither flag). Neither caps the heap: it still grows as far as live data needs, up to
// V8's usual limit, so a big workload is never made to crash.
//
// - Old space: by default V8 lets it grow to up to four times what survived the last full GC
//   before collecting again; a gateway under steady turns promotes much short-lived garbage (model
//   request bodies, stream chunks), so its RSS settles far above its live data. A fixed growing
//   factor makes the next full GC come once the old space has grown by that share of the live data
//   (read at every full GC).
// - Young generation: V8 doubles it after busy scavenges up to 32 MiB (Node 20; 64 MiB on Node 24),
//   committed for good. Its maximum is fixed at start, but the growth factor is read at each growth:
//   it is set to 1 (no growth) while the young generation is at or above the target, and back to
//   V8's 2 below it (after V8 shrank it when idle). The size is checked at start and after each GC
//   (GC entries arrive between tasks), so one long synchronous stretch can still grow it more than
//   once (Node 24's start-up does). Bytes that outlive a smaller young generation go to the old
//   space, which the growing factor above keeps close to what is live.

import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** Old-space growth after a full GC, as a percentage of what survived it. */
export const HEAP_GROWING_PERCENT = 50;

/** Young generation (both semi-spaces) at which it stops growing: 8 MiB instead of V8's 32 or 64. */
export const YOUNG_GENERATION_TARGET_BYTES = 8 * 1024 * 1024;

/** V8's own young-generation growth factor, restored below the target. */
const V8_SEMI_SPACE_GROWTH_FACTOR = 2;

/** `--heap-growing-percent=0`: V8's own factor, derived from GC and mutator speed. */
const V8_HEAP_GROWING_PERCENT = 0;

const GROWING_PERCENT_FLAG = "--heap-growing-percent";
const SEMI_SPACE_GROWTH_FLAG = "--semi-space-growth-factor";
const SEMI_SPACE_SIZE_FLAGS = ["--max-semi-space-size", "--min-semi-space-size"];

/** The V8 hooks tuning needs; {@link nodeV8Controls} are the real ones. */
export interface V8Controls {
  /** Sets one V8 flag (`--name=value`). */
  setFlags(flag: string): void;
  /** Bytes committed to the young generation now. */
  youngGenerationBytes(): number;
  /** Calls `listener` after each GC; returns the unsubscribe. */
  onGc(listener: () => void): () => void;
}

/** What {@link applyMemoryTuning} reads. */
export interface MemoryTuningParams {
  /** The node options of this process (`process.execArgv`): a setting given there is left alone. */
  execArgv: readonly string[];
  /** The V8 hooks; {@link nodeV8Controls} unless given. */
  v8?: V8Controls;
}

/** The tuning in force (absent fields: left to the user's own flags), and `dispose()`. */
export interface MemoryTuning {
  /** The old space's growing factor after a full GC, in percent of what survived it. */
  heapGrowingPercent?: number;
  /** The young-generation size it stops growing at (at most one doubling past it). */
  youngGenerationTargetBytes?: number;
  /** Stops following the GC and restores V8's defaults for what was tuned. */
  dispose(): void;
}

/** The real V8 hooks: `v8.setFlagsFromString`, heap space statistics, `gc` performance entries. */
export function nodeV8Controls(): V8Controls {
  return {
    setFlags: (flag) => setFlagsFromString(flag),
    youngGenerationBytes: () =>
      getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0,
    onGc: (listener) => {
      const observer = new PerformanceObserver(() => listener());
      observer.observe({ entryTypes: ["gc"] });
      return () => observer.disconnect();
    },
  };
}

/** The option name of a node/V8 flag (`--a_b=1` → `--a-b`), so `_` and `-` spellings match. */
function flagName(flag: string): string {
  return (flag.split("=")[0] ?? "").replaceAll("_", "-");
}

/**
 * Tunes the heap of this process for a long-running daemon, except for settings the user gave node
 * on its command line (theirs win). Call early, in the daemon process only, and dispose when it
 * stops: V8 flags are process-wide, so an embedding process (tests, a library user) gets V8's
 * defaults back.
 */
export function applyMemoryTuning(params: MemoryTuningParams): MemoryTuning {
  const v8 = params.v8 ?? nodeV8Controls();
  const given = new Set(params.execArgv.map(flagName));
  const tuneOldSpace = !given.has(GROWING_PERCENT_FLAG);
  const tuneYoung = ![SEMI_SPACE_GROWTH_FLAG, ...SEMI_SPACE_SIZE_FLAGS].some((f) => given.has(f));
  if (tuneOldSpace) v8.setFlags(`${GROWING_PERCENT_FLAG}=${HEAP_GROWING_PERCENT}`);
  let factor = V8_SEMI_SPACE_GROWTH_FACTOR;
  const setFactor = (next: number) => {
    if (next === factor) return;
    factor = next;
    v8.setFlags(`${SEMI_SPACE_GROWTH_FLAG}=${next}`);
  };
  const follow = () =>
    setFactor(
      v8.youngGenerationBytes() >= YOUNG_GENERATION_TARGET_BYTES ? 1 : V8_SEMI_SPACE_GROWTH_FACTOR,
    );
  if (tuneYoung) follow();
  const unsubscribe = tuneYoung ? v8.onGc(follow) : () => {};
  return {
    ...(tuneOldSpace ? { heapGrowingPercent: HEAP_GROWING_PERCENT } : {}),
    ...(tuneYoung ? { youngGenerationTargetBytes: YOUNG_GENERATION_TARGET_BYTES } : {}),
    dispose: () => {
      unsubscribe();
      setFactor(V8_SEMI_SPACE_GROWTH_FACTOR);
      if (tuneOldSpace) v8.setFlags(`${GROWING_PERCENT_FLAG}=${V8_HEAP_GROWING_PERCENT}`);
    },
  };
}
