// A stand-in for the process part of CliIo: this process's pid, platform and node binary, and signals
// that only `send` delivers (a test never installs real SIGINT/SIGTERM listeners).
import { EventEmitter } from "node:events";
import type { CliContext } from "../../src/cli/command-context.js";
import { type ProcessIo, processIo } from "../../src/cli/process-io.js";

/** Signals a test delivers by hand to what a command subscribed with `ctx.onSignal`. */
export interface FakeSignals {
  /** Delivers `signal` to its current listeners. */
  send: (signal: NodeJS.Signals) => void;
  /** How many listeners `signal` has now (a command waiting for Ctrl-C has one). */
  listeners: (signal: NodeJS.Signals) => number;
}

/** The process part of a test's io, plus the hand for its signals. */
export function createFakeProcessIo(): { io: ProcessIo; signals: FakeSignals } {
  const emitter = new EventEmitter();
  const source = Object.assign(emitter, {
    pid: process.pid,
    platform: process.platform,
    execPath: process.execPath,
    argv: [process.execPath, "pincer"],
    execArgv: [],
  }) as unknown as Parameters<typeof processIo>[0];
  return {
    io: processIo(source),
    signals: {
      send: (signal) => {
        emitter.emit(signal, signal);
      },
      listeners: (signal) => emitter.listenerCount(signal),
    },
  };
}

/** Just the io part, for contexts that never wait for a signal. */
export function fakeProcessIo(): ProcessIo {
  return createFakeProcessIo().io;
}

/** A command context writing into strings (`out()`, `err()`), with the fake process io. */
export function capturingContext(params: {
  env: Record<string, string | undefined>;
  isTty?: boolean;
}): { ctx: CliContext; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  const ctx: CliContext = {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    env: params.env,
    readStdin: async () => "",
    ...fakeProcessIo(),
    isTty: params.isTty ?? false,
    color: false,
  };
  return { ctx, out: () => out, err: () => err };
}
