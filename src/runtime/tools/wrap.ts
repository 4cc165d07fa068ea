// The wrapper every built-in tool gets in a toolset: it honours cancellation (an aborted run or call ends
// the call at once with an "aborted" error) and turns anything thrown into a ToolError, which the agent
// loop reports as a tool result with `isError: true`. Optionally normalizes the parameter schema.
import type { Logger } from "../../lib/logger.js";
import { normalizeToolSchema } from "./schema-normalize.js";
import {
  type AnyAgentTool,
  errnoCode,
  errorMessage,
  ToolAbortedError,
  ToolError,
} from "./types.js";

/** Options of {@link wrapTool}. */
export interface WrapToolOptions {
  /** The run's signal: aborting it aborts every call of the tool. */
  signal?: AbortSignal;
  /** Normalize the parameter schema for this provider api (see normalizeToolSchema). */
  api?: string;
  logger?: Logger;
}

/** A failure as a {@link ToolError} (kept as is when it already is one), never a non-Error value. */
export function toToolError(toolName: string, err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  const message = errorMessage(err).trim();
  const code = errnoCode(err);
  const text = message === "" ? `${toolName} failed${code ? ` (${code})` : ""}.` : message;
  return new ToolError(text, { cause: err });
}

function combine(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

/** Settles with `work`, or rejects with ToolAbortedError as soon as `signal` aborts. */
function raceAbort<T>(params: {
  work: Promise<T>;
  signal: AbortSignal | undefined;
  toolName: string;
  logger?: Logger;
}): Promise<T> {
  const { work, signal, toolName, logger } = params;
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      reject(new ToolAbortedError(toolName));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        if (aborted && !(err instanceof ToolAbortedError)) {
          logger?.warn(`${toolName}: failed after the call was aborted: ${errorMessage(err)}`);
        }
        reject(err);
      },
    );
  });
}

/** Wraps a tool for a run: cancellation, error conversion and (optionally) schema normalization. */
export function wrapTool(tool: AnyAgentTool, options: WrapToolOptions = {}): AnyAgentTool {
  const parameters = options.api
    ? normalizeToolSchema(tool.parameters, options.api)
    : tool.parameters;
  return {
    ...tool,
    parameters,
    async execute(toolCallId, params, callSignal, onUpdate) {
      const signal = combine(options.signal, callSignal);
      if (signal?.aborted) throw new ToolAbortedError(tool.name);
      try {
        const work = Promise.resolve().then(() =>
          tool.execute(toolCallId, params, signal, onUpdate),
        );
        return await raceAbort({ work, signal, toolName: tool.name, logger: options.logger });
      } catch (err) {
        throw toToolError(tool.name, err);
      }
    },
  };
}
