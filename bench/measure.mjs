// Small timing helpers for the bench scripts.
import { performance } from "node:perf_hooks";

/** Runs `fn` repeatedly for about `ms` milliseconds; returns operations per second. */
export function opsPerSecond(fn, ms = 1000) {
  for (let i = 0; i < 10_000; i++) fn(i); // warm up the JIT
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 10_000; i++) fn(ops + i);
    ops += 10_000;
    now = performance.now();
  }
  return (ops / (now - start)) * 1000;
}

/** Median of `runs` timings of `fn` (sync or async), in milliseconds. */
export async function medianMs(fn, runs = 9) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Formats a number with thousands separators. */
export function fmt(n) {
  return Math.round(n).toLocaleString("en-US");
}
