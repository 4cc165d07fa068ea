// Which workspace files go into the prompt ("Project Context"), in which order and how big:
// read → missing markers → `agent:bootstrap` hooks → empty files dropped → per-file and total caps.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { DEFAULT_AGENT_ID } from "../routing/ids.js";
import {
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
} from "./bootstrap-config.js";
import {
  type BootstrapHookRegistry,
  type BootstrapMode,
  type BootstrapSource,
  runBootstrapHooks,
} from "./bootstrap-hooks.js";

/** Always injected (a marker stands in when missing), in prompt order. */
export const CORE_BOOTSTRAP_FILES: readonly string[] = [
  "AGENTS.md",
  "SOUL.md",
  "TOOLS.md",
  "IDENTITY.md",
  "USER.md",
  "HEARTBEAT.md",
];
/** What a sub-agent run sees: the operating rules and the tool notes, nothing personal. */
export const SUBAGENT_BOOTSTRAP_FILES: readonly string[] = ["AGENTS.md", "TOOLS.md"];
/** Long-term memory names, preferred first; injected in the main session only. */
export const MEMORY_FILE_NAMES: readonly string[] = ["MEMORY.md", "memory.md"];

/** Share of a truncated file's excerpt taken from its start; the rest comes from its end. */
const HEAD_SHARE = 0.75;
/** Below this many excerpt characters a truncated file is left out instead of shown in pieces. */
const MIN_EXCERPT_CHARS = 64;

/** One injected file: its text after the caps, and the sizes the context report shows. */
export interface BootstrapFile extends BootstrapSource {
  /** Length of the file's full text (0 for a missing file). */
  rawChars: number;
  /** Length of `content` as injected; 0 when the caps left no room (then `content` is ""). */
  injectedChars: number;
  /** True when `content` is shorter than the file (head + marker + tail, or left out). */
  truncated: boolean;
}

/** Inputs for {@link loadBootstrapFiles}; caps default to 20000 per file and 150000 in total. */
export interface LoadBootstrapParams {
  workspaceDir: string;
  mode: BootstrapMode;
  /** Per-file cap (`bootstrapMaxChars`); see `resolveBootstrapLimits`. */
  maxChars?: number;
  /** Cap over all files together (`bootstrapTotalMaxChars`). */
  totalMaxChars?: number;
  /** `agent:bootstrap` hooks, run in registration order. */
  hooks?: BootstrapHookRegistry;
  /** Passed to hooks; default `main`. */
  agentId?: string;
  /** Passed to hooks. */
  sessionKey?: string;
}

/** The files to inject, in order, plus warnings (failed hooks, files left out by the caps). */
export interface LoadBootstrapResult {
  files: BootstrapFile[];
  warnings: string[];
}

/** The one-line stand-in injected for a required file that does not exist. */
export function missingFileMarker(name: string, path: string): string {
  return `[missing file] ${name} does not exist (expected at ${path})`;
}

/** The line placed between the head and the tail of a truncated file. */
export function truncationMarker(name: string, rawChars: number): string {
  return `[... truncated ${name} (${rawChars} chars); read the file for the omitted middle ...]`;
}

/** Inputs for {@link fitBootstrapContent}. */
export interface FitContentParams {
  name: string;
  content: string;
  /** Largest allowed length of the result. */
  cap: number;
}

/** Cuts `content` to at most `cap` chars: head (75%) + marker line + tail (25%), or "" if no room. */
export function fitBootstrapContent(params: FitContentParams): {
  content: string;
  truncated: boolean;
} {
  const { name, content, cap } = params;
  if (content.length <= cap) return { content, truncated: false };
  const marker = truncationMarker(name, content.length);
  const room = cap - marker.length - 2;
  if (room < MIN_EXCERPT_CHARS) return { content: "", truncated: true };
  let headEnd = Math.floor(room * HEAD_SHARE);
  let tailStart = content.length - (room - headEnd);
  // Never split a surrogate pair: the result must stay well-formed text.
  if (isHighSurrogate(content.charCodeAt(headEnd - 1))) headEnd -= 1;
  if (isLowSurrogate(content.charCodeAt(tailStart))) tailStart += 1;
  return {
    content: `${content.slice(0, headEnd)}\n${marker}\n${content.slice(tailStart)}`,
    truncated: true,
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A file's text, or why there is none (`error` unset: the file does not exist). */
type ReadOutcome = { ok: true; content: string } | { ok: false; error?: string };

async function readText(path: string): Promise<ReadOutcome> {
  try {
    return { ok: true, content: await readFile(path, "utf8") };
  } catch (err) {
    const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false };
    // Unreadable (permissions, a folder in the way...): reported, and the run goes on without it.
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Reads the files the mode calls for, in prompt order; required ones get a marker when missing. */
async function readSources(params: {
  dir: string;
  mode: BootstrapMode;
  warnings: string[];
}): Promise<BootstrapSource[]> {
  const { dir, mode, warnings } = params;
  const required = mode === "subagent" ? SUBAGENT_BOOTSTRAP_FILES : CORE_BOOTSTRAP_FILES;
  const optional = mode === "subagent" ? [] : ["BOOTSTRAP.md"];
  const memory = mode === "main" ? MEMORY_FILE_NAMES : [];
  const names = [...required, ...optional, ...memory];
  const outcomes = await Promise.all(names.map((name) => readText(join(dir, name))));
  const sources: BootstrapSource[] = [];
  let memoryFound = false;
  names.forEach((name, index) => {
    const path = join(dir, name);
    const outcome = outcomes[index]!;
    const isMemory = memory.includes(name);
    if (isMemory && memoryFound) return;
    if (outcome.ok) {
      if (isMemory) memoryFound = true;
      sources.push({ name, path, content: outcome.content, missing: false });
      return;
    }
    if (outcome.error !== undefined) warnings.push(`cannot read ${path}: ${outcome.error}`);
    if (required.includes(name))
      sources.push({ name, path, content: missingFileMarker(name, path), missing: true });
  });
  return sources;
}

/** Applies the per-file cap and the running total budget, in order. */
function applyCaps(params: {
  sources: BootstrapSource[];
  maxChars: number;
  totalMaxChars: number;
  warnings: string[];
}): BootstrapFile[] {
  let remaining = params.totalMaxChars;
  return params.sources.map((source) => {
    const rawChars = source.missing ? 0 : source.content.length;
    const cap = Math.max(0, Math.min(params.maxChars, remaining));
    const fitted = fitBootstrapContent({ name: source.name, content: source.content, cap });
    remaining -= fitted.content.length;
    if (fitted.truncated && fitted.content === "")
      params.warnings.push(
        `${source.name} was not injected: no room left under the bootstrap caps (${params.maxChars} per file, ${params.totalMaxChars} in total)`,
      );
    return {
      ...source,
      content: fitted.content,
      rawChars,
      injectedChars: fitted.content.length,
      truncated: fitted.truncated,
    };
  });
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

/** Loads the bootstrap files to inject for a run, hooks applied and caps enforced. Never throws for
 * missing or unreadable files or failing hooks; those become markers and warnings. */
export async function loadBootstrapFiles(
  params: LoadBootstrapParams,
): Promise<LoadBootstrapResult> {
  const workspaceDir = resolve(params.workspaceDir);
  const warnings: string[] = [];
  let sources = await readSources({ dir: workspaceDir, mode: params.mode, warnings });
  if (params.hooks) {
    const hooked = await runBootstrapHooks({
      registry: params.hooks,
      ctx: {
        agentId: params.agentId ?? DEFAULT_AGENT_ID,
        ...(params.sessionKey !== undefined ? { sessionKey: params.sessionKey } : {}),
        workspaceDir,
        mode: params.mode,
        files: sources,
      },
    });
    sources = hooked.files;
    warnings.push(...hooked.warnings);
  }
  const nonEmpty = sources.filter((source) => source.content.trim() !== "");
  const files = applyCaps({
    sources: nonEmpty,
    maxChars: positiveOr(params.maxChars, DEFAULT_BOOTSTRAP_MAX_CHARS),
    totalMaxChars: positiveOr(params.totalMaxChars, DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS),
    warnings,
  });
  return { files, warnings };
}
