// A logger usable before the real one exists: lines logged until `flush()` has loaded it are kept
// (with their child bindings and the moment they were logged) and written through the real logger,
// in order, once it arrives; later lines go straight to it. Lets the daemon listen before pino loads.
import type { LogFields, Logger, LogLevel, LogMethod } from "../../lib/logger.js";

interface PendingLine {
  chain: LogFields[];
  level: LogLevel;
  args: [LogFields | string, string | undefined];
  at: number;
}

/** Inputs of {@link createDeferredLogger}. */
export interface DeferredLoggerParams {
  /** Loads the real logger (called once, by the first `flush()`). */
  load: () => Promise<Logger>;
  now: () => number;
  /** Called with a kept line's time before it is written (undefined after): the real logger's clock. */
  replayingAt: (time: number | undefined) => void;
  /** Where to say that the real logger failed to load (the kept lines are then lost). */
  onLoadError: (err: unknown) => void;
}

/** The stand-in logger, and `flush()`: loads the real one, resolves once every kept line is written. */
export function createDeferredLogger(params: DeferredLoggerParams): {
  logger: Logger;
  flush: () => Promise<void>;
} {
  let real: Logger | undefined;
  let pending: PendingLine[] | undefined = [];
  const resolve = (chain: LogFields[]): Logger =>
    chain.reduce((logger, bindings) => logger.child(bindings), real as Logger);
  const write = (logger: Logger, level: LogLevel, args: PendingLine["args"]) => {
    const [first, msg] = args;
    if (typeof first === "string") logger[level](first);
    else logger[level](first, msg);
  };
  const build = (chain: LogFields[]): Logger => {
    let target: Logger | undefined;
    const at =
      (level: LogLevel): LogMethod =>
      (first: LogFields | string, msg?: string) => {
        if (pending) {
          pending.push({ chain, level, args: [first, msg], at: params.now() });
          return;
        }
        if (!real) return;
        target ??= resolve(chain);
        write(target, level, [first, msg]);
      };
    return {
      debug: at("debug"),
      info: at("info"),
      warn: at("warn"),
      error: at("error"),
      child: (bindings) => build([...chain, bindings]),
    };
  };
  let flushed: Promise<void> | undefined;
  const flush = () => {
    flushed ??= params.load().then(
      (logger) => {
        real = logger;
        const lines = pending ?? [];
        pending = undefined;
        for (const line of lines) {
          params.replayingAt(line.at);
          try {
            write(resolve(line.chain), line.level, line.args);
          } finally {
            params.replayingAt(undefined);
          }
        }
      },
      (err: unknown) => {
        pending = undefined;
        params.onLoadError(err);
      },
    );
    return flushed;
  };
  return { logger: build([]), flush };
}
