import { describe, expect, it } from "vitest";
import { OutputBuffer } from "./output-buffer.js";
import { ProcessRegistry } from "./process-registry.js";
import type { ShellProcess } from "./shell-process.js";

describe("OutputBuffer", () => {
  it("keeps everything under the cap", () => {
    const buffer = new OutputBuffer(100);
    buffer.append("abc");
    buffer.append("def");
    expect(buffer.text()).toBe("abcdef");
    expect(buffer.truncated).toBe(false);
  });

  it("keeps a quarter of the cap from the start and the rest from the end", () => {
    const buffer = new OutputBuffer(8);
    for (const chunk of ["0123", "4567", "89ab", "cdef"]) buffer.append(chunk);
    expect(buffer.text()).toBe("01\n\n[... 8 characters of output omitted ...]\n\nabcdef");
    expect(buffer.total).toBe(16);
  });

  it("drains only what arrived since the last drain, newest part first to go", () => {
    const buffer = new OutputBuffer(100, 4);
    buffer.append("hello");
    expect(buffer.drain()).toBe("[... 1 earlier characters omitted ...]\nello");
    expect(buffer.drain()).toBe("");
    buffer.append("!");
    expect(buffer.drain()).toBe("!");
  });
});

describe("ProcessRegistry", () => {
  const finished = (startedAt: number, durationMs: number) =>
    ({ startedAt, running: false, exit: { durationMs } }) as unknown as ShellProcess;

  it("prunes finished jobs past the retention window and keeps scopes apart", () => {
    let now = 1_000_000;
    let n = 0;
    const jobs = new ProcessRegistry({
      finishedTtlMs: 1000,
      now: () => now,
      newId: () => `j${++n}`,
    });
    jobs.add({ scope: "a", command: "x", cwd: "/", process: finished(now - 5000, 100) });
    jobs.add({ scope: "a", command: "y", cwd: "/", process: finished(now, 0) });
    jobs.add({ scope: "b", command: "z", cwd: "/", process: finished(now, 0) });
    expect(jobs.list("a").map((job) => job.id)).toEqual(["j2"]);
    expect(jobs.get("b", "j2")).toBeUndefined();
    now += 2000;
    expect(jobs.list("a")).toEqual([]);
    expect(jobs.list("b")).toEqual([]);
  });
});
