// The process facts and the signal hook of CliIo, read from a node process object. main.ts passes the
// real one (the only module that touches the global); tests pass a stand-in, so commands that wait
// for Ctrl-C or print their pid run in-process.
import type { CliIo } from "./command-context.js";

/** The part of CliIo that comes from the process itself. */
export type ProcessIo = Pick<
  CliIo,
  "pid" | "platform" | "execPath" | "scriptPath" | "execArgv" | "onSignal"
>;

/** What `processIo` reads: a node process, or a stand-in with the same members. */
export type ProcessSource = Pick<
  NodeJS.Process,
  "pid" | "platform" | "execPath" | "argv" | "execArgv" | "on" | "off"
>;

/** The io's process part over `source`; `onSignal` handlers fire once, then stop listening. */
export function processIo(source: ProcessSource): ProcessIo {
  return {
    pid: source.pid,
    platform: source.platform,
    execPath: source.execPath,
    scriptPath: source.argv[1],
    execArgv: [...source.execArgv],
    onSignal: (signals, handler) => {
      let listening = true;
      const stop = () => {
        if (!listening) return;
        listening = false;
        for (const name of signals) source.off(name, listener);
      };
      const listener = (signal: NodeJS.Signals) => {
        stop();
        handler(signal);
      };
      for (const name of signals) source.on(name, listener);
      return stop;
    },
  };
}
