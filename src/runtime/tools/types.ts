// Shared pieces of the built-in tools: the error classes the loop turns into `isError` results, result
// builders, limits and the logger. pi-agent-core's contract: a tool throws on failure, the loop converts.
import type { AgentTool, AgentToolResult } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";

/**
 * Any built-in tool. `AgentTool<any>` because pi-agent-core's own `AgentState.tools` is `AgentTool<any>[]`:
 * `execute` takes each tool's own parameter type, so a typed tool is not assignable to `AgentTool<TSchema>`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the pi-agent-core tool array type forces it.
export type AnyAgentTool = AgentTool<any>;

/** A tool failure with a message written for the model; the agent loop reports it with `isError: true`. */
export class ToolError extends Error {
  override name = "ToolError";
}

/** The call was cancelled (run aborted, timeout of the whole run, user stop). */
export class ToolAbortedError extends ToolError {
  override name = "ToolAbortedError";
  constructor(toolName: string) {
    super(`Tool ${toolName} was aborted.`);
  }
}

/** Content blocks a tool result can carry. */
export type ToolContent = TextContent | ImageContent;

/** A plain text result with optional structured details. */
export function textResult<T>(text: string, details: T): AgentToolResult<T> {
  return { content: [{ type: "text", text }], details };
}

/** A result whose text is the JSON of `value` (what session tools return) and whose details are the value. */
export function jsonResult<T>(value: T): AgentToolResult<T> {
  return textResult(JSON.stringify(value, null, 2), value);
}

/** Size and time limits of the built-in tools; every field has a default in {@link DEFAULT_TOOL_LIMITS}. */
export interface ToolLimits {
  /** `read`: lines returned when no `limit` is given. */
  readMaxLines: number;
  /** `read`: characters returned per call (the window is cut at a line boundary). */
  readMaxChars: number;
  /** `read`: largest text file read at all, in bytes. */
  readMaxFileBytes: number;
  /** `read`: largest image returned as image content, in bytes. */
  imageMaxBytes: number;
  /** `exec`: characters of output kept for the result (head + tail). */
  execMaxOutputChars: number;
  /** `exec`: default timeout when neither the call nor `tools.exec.timeoutSec` sets one. */
  execTimeoutSec: number;
  /** Background jobs: characters of output retained per job (head + tail). */
  jobMaxOutputChars: number;
  /** `process poll`: characters of new output returned per poll (the newest are kept). */
  pollMaxChars: number;
  /** Grace between SIGTERM and SIGKILL when a command is stopped. */
  killGraceMs: number;
}

/** Defaults of {@link ToolLimits}: pi-coding-agent's read window (2000 lines / 50 KB), OpenClaw's 30 min exec. */
export const DEFAULT_TOOL_LIMITS: Readonly<ToolLimits> = Object.freeze({
  readMaxLines: 2000,
  readMaxChars: 50_000,
  readMaxFileBytes: 10 * 1024 * 1024,
  imageMaxBytes: 5 * 1024 * 1024,
  execMaxOutputChars: 50_000,
  execTimeoutSec: 1800,
  jobMaxOutputChars: 200_000,
  pollMaxChars: 30_000,
  killGraceMs: 1000,
});

/** Node's errno-style error, as `fs` and `child_process` raise it. */
export function errnoCode(err: unknown): string | undefined {
  if (err && typeof err === "object" && "code" in err && typeof err.code === "string") {
    return err.code;
  }
  return undefined;
}

/** The message of anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Throws {@link ToolAbortedError} when the signal is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, toolName: string): void {
  if (signal?.aborted) throw new ToolAbortedError(toolName);
}
