// ctx.onSignal as main.ts builds it: the handler fires once, on the first of its signals; after that
// (or after the unsubscribe) nothing listens any more, so a second Ctrl-C gets node's default.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { type ProcessSource, processIo } from "./process-io.js";

function fakeSource() {
  const emitter = new EventEmitter();
  const source = Object.assign(emitter, {
    pid: 4242,
    platform: "linux" as const,
    execPath: "/opt/node/bin/node",
    argv: ["/opt/node/bin/node", "/opt/pincer/dist/bin/pincer.js", "logs"],
    execArgv: ["--heap-growing-percent=10"],
  }) as unknown as ProcessSource;
  const count = () => emitter.listenerCount("SIGINT") + emitter.listenerCount("SIGTERM");
  return { source, emitter, count };
}

describe("processIo", () => {
  it("reads pid, platform, node binary, script and node flags from the process", () => {
    const io = processIo(fakeSource().source);
    expect(io).toMatchObject({
      pid: 4242,
      platform: "linux",
      execPath: "/opt/node/bin/node",
      scriptPath: "/opt/pincer/dist/bin/pincer.js",
      execArgv: ["--heap-growing-percent=10"],
    });
  });

  it("calls the handler once, on the first signal, then stops listening to all of them", () => {
    const { source, emitter, count } = fakeSource();
    const got: string[] = [];
    processIo(source).onSignal(["SIGINT", "SIGTERM"], (signal) => got.push(signal));
    expect(count()).toBe(2);
    emitter.emit("SIGTERM", "SIGTERM");
    emitter.emit("SIGINT", "SIGINT");
    expect(got).toEqual(["SIGTERM"]);
    expect(count()).toBe(0);
  });

  it("unsubscribes (idempotently) without a signal", () => {
    const { source, emitter, count } = fakeSource();
    const got: string[] = [];
    const off = processIo(source).onSignal(["SIGINT"], (signal) => got.push(signal));
    off();
    off();
    emitter.emit("SIGINT", "SIGINT");
    expect(got).toEqual([]);
    expect(count()).toBe(0);
  });
});
