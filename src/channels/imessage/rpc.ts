// The `imsg rpc` child process and its JSON-RPC 2.0 over stdio (one JSON object per line): calls
// with an id answered by id (a timeout or the process's exit fails the ones pending), notifications
// (`message`) handed to a listener, stderr logged. Answers are values, never exceptions; `exited`
// settles with the reason once the process is gone.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Logger, SendFailure } from "../index.js";
import type { IMessageSettings } from "./settings.js";

/** What one call gave. */
export type IMessageRpcResult = { ok: true; result: unknown } | { ok: false; failure: SendFailure };

/** A running `imsg rpc`. */
export interface IMessageRpc {
  call(method: string, params?: Record<string, unknown>): Promise<IMessageRpcResult>;
  /** Settles when the process is gone: "stopped" after {@link IMessageRpc.stop}, else why. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** Starts `<cliPath> rpc [--db <dbPath>]`; `onNotification` gets each notification's method and params. */
export function startIMessageRpc(params: {
  settings: IMessageSettings;
  env: Record<string, string | undefined>;
  log: Logger;
  onNotification: (method: string, params: unknown) => void;
}): IMessageRpc {
  const { settings, log } = params;
  const args = ["rpc", ...(settings.dbPath ? ["--db", settings.dbPath] : [])];
  const child = spawn(settings.cliPath, args, {
    env: params.env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pending = new Map<string, (result: IMessageRpcResult) => void>();
  let nextId = 1;
  let stopping = false;
  let gone: string | undefined;
  const exited = new Promise<string>((resolve) => {
    const end = (reason: string) => {
      if (gone !== undefined) return;
      gone = stopping ? "stopped" : reason;
      for (const [id, answer] of pending) {
        pending.delete(id);
        answer({
          ok: false,
          failure: { message: `imsg: ${gone}`, retryable: false, uncertain: true },
        });
      }
      resolve(gone);
    };
    child.once("error", (err) => end(`${settings.cliPath} could not run: ${err.message}`));
    child.once("exit", (code, signal) => end(`imsg rpc exited (${signal ?? code})`));
  });
  child.stdin.on("error", (err) =>
    log.debug({ error: err.message }, "imessage: imsg stdin closed"),
  );
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line.trim() === "") return;
    let frame: {
      id?: unknown;
      method?: unknown;
      params?: unknown;
      result?: unknown;
      error?: { message?: unknown };
    };
    try {
      frame = JSON.parse(line);
    } catch {
      log.warn({ line: line.slice(0, 200) }, "imessage: imsg wrote a line that is not JSON");
      return;
    }
    if (frame.id !== undefined && frame.id !== null) {
      const answer = pending.get(String(frame.id));
      if (!answer) return;
      pending.delete(String(frame.id));
      if (frame.error)
        answer({
          ok: false,
          failure: { message: `imsg: ${String(frame.error.message ?? "error")}`, retryable: false },
        });
      else answer({ ok: true, result: frame.result });
      return;
    }
    if (typeof frame.method === "string") params.onNotification(frame.method, frame.params);
  });
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (line.trim()) log.debug({ line: line.slice(0, 500) }, "imessage: imsg stderr");
  });
  return {
    exited,
    call(method, callParams) {
      if (gone !== undefined)
        return Promise.resolve({
          ok: false,
          failure: { message: `imsg: ${gone}`, retryable: true },
        });
      const id = String(nextId++);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({
            ok: false,
            failure: {
              message: `imsg: ${method} got no answer in ${settings.timeoutMs} ms`,
              retryable: false,
              uncertain: true,
            },
          });
        }, settings.timeoutMs);
        pending.set(id, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: "2.0", id, method, params: callParams ?? {} })}\n`,
        );
      });
    },
    async stop() {
      if (gone !== undefined) return;
      stopping = true;
      child.stdin.end();
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}
