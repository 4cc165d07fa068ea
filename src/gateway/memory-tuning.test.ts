import { describe, expect, it } from "vitest";
import {
  applyMemoryTuning,
  HEAP_GROWING_PERCENT,
  type V8Controls,
  YOUNG_GENERATION_TARGET_BYTES,
} from "./memory-tuning.js";

/** Fake V8 hooks: records flags, reports a settable young-generation size, GCs on demand. */
function fakeV8(youngBytes = 2 * 1024 * 1024) {
  const state = { flags: [] as string[], young: youngBytes, listeners: new Set<() => void>() };
  const v8: V8Controls = {
    setFlags: (flag) => state.flags.push(flag),
    youngGenerationBytes: () => state.young,
    onGc: (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
  };
  const gc = (young: number) => {
    state.young = young;
    for (const listener of state.listeners) listener();
  };
  return { state, v8, gc };
}

describe("daemon memory tuning", () => {
  it("sets a fixed old-space growing factor, and no heap cap", () => {
    const fake = fakeV8();
    const tuning = applyMemoryTuning({ execArgv: [], v8: fake.v8 });
    expect(fake.state.flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    expect(tuning.heapGrowingPercent).toBe(HEAP_GROWING_PERCENT);
    expect(fake.state.flags.some((flag) => /max-old-space|max-heap-size/.test(flag))).toBe(false);
    tuning.dispose();
  });

  it("stops the young generation growing at the target and lets it grow again once V8 shrank it", () => {
    const fake = fakeV8();
    const tuning = applyMemoryTuning({ execArgv: [], v8: fake.v8 });
    expect(tuning.youngGenerationTargetBytes).toBe(YOUNG_GENERATION_TARGET_BYTES);
    fake.state.flags.length = 0;
    fake.gc(YOUNG_GENERATION_TARGET_BYTES / 2);
    expect(fake.state.flags).toEqual([]);
    fake.gc(YOUNG_GENERATION_TARGET_BYTES);
    expect(fake.state.flags).toEqual(["--semi-space-growth-factor=1"]);
    fake.gc(YOUNG_GENERATION_TARGET_BYTES * 2);
    expect(fake.state.flags).toEqual(["--semi-space-growth-factor=1"]); // set once, not per GC
    fake.gc(YOUNG_GENERATION_TARGET_BYTES / 4);
    expect(fake.state.flags).toEqual([
      "--semi-space-growth-factor=1",
      "--semi-space-growth-factor=2",
    ]);
    tuning.dispose();
    expect(fake.state.listeners.size).toBe(0);
  });

  it("dispose gives V8 its defaults back", () => {
    const fake = fakeV8();
    const tuning = applyMemoryTuning({ execArgv: [], v8: fake.v8 });
    fake.gc(YOUNG_GENERATION_TARGET_BYTES);
    fake.state.flags.length = 0;
    tuning.dispose();
    expect(fake.state.flags.sort()).toEqual([
      "--heap-growing-percent=0",
      "--semi-space-growth-factor=2",
    ]);
    fake.gc(4 * YOUNG_GENERATION_TARGET_BYTES);
    expect(fake.state.flags).toHaveLength(2);
    expect(fake.state.listeners.size).toBe(0);
  });

  it("a young generation already past the target stops growing at once", () => {
    const fake = fakeV8(4 * YOUNG_GENERATION_TARGET_BYTES);
    applyMemoryTuning({ execArgv: [], v8: fake.v8 }).dispose();
    expect(fake.state.flags).toContain("--semi-space-growth-factor=1");
  });

  it("leaves alone what the user gave node, in either spelling", () => {
    const fake = fakeV8();
    const tuning = applyMemoryTuning({
      execArgv: ["--inspect", "--heap_growing_percent=10", "--max-semi-space-size=64"],
      v8: fake.v8,
    });
    fake.gc(4 * YOUNG_GENERATION_TARGET_BYTES);
    tuning.dispose();
    expect(fake.state.flags).toEqual([]);
    expect(tuning.heapGrowingPercent).toBeUndefined();
    expect(tuning.youngGenerationTargetBytes).toBeUndefined();
    expect(fake.state.listeners.size).toBe(0);
  });

  it("other node options do not stop the tuning", () => {
    const fake = fakeV8();
    const tuning = applyMemoryTuning({
      execArgv: ["--max-old-space-size=4096", "--enable-source-maps"],
      v8: fake.v8,
    });
    expect(tuning.heapGrowingPercent).toBe(HEAP_GROWING_PERCENT);
    expect(tuning.youngGenerationTargetBytes).toBe(YOUNG_GENERATION_TARGET_BYTES);
    tuning.dispose();
  });
});
