// Allowlist matching (`tools.exec.security: "allowlist"`): every simple command of the line must
// be allowed, either as a safe bin (safe-bins.ts) called by its bare name or because the executable
// it resolves to (PATH search, or a path relative to the cwd) matches an approvals-file pattern.
// Patterns are case-insensitive globs over the resolved path (`*` within one directory, `**` across,
// `?` one character, a leading `~` the home directory); basename-only patterns are ignored, as in
// OpenClaw. Anything the parser cannot vouch for is a miss with its reason.
import { accessSync, constants, statSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, resolve } from "node:path";
import { safeBinRefusal } from "./safe-bins.js";
import { parseShellCommand, type ShellWord } from "./shell-words.js";

/** Inputs of {@link evaluateAllowlist}. */
export interface AllowlistParams {
  command: string;
  cwd: string;
  /** The command's environment (its PATH decides what a bare name runs). */
  env: Record<string, string | undefined>;
  /** The agent's approvals-file patterns (its own and `*`'s). */
  patterns: readonly string[];
  safeBins: readonly string[];
  /** The home directory for `~` (default: the env's HOME). */
  home?: string;
}

/** The verdict: allowed, or a miss naming why; `resolvedPaths` lists each segment's executable. */
export interface AllowlistVerdict {
  allowed: boolean;
  reason?: string;
  /** One per segment when every executable resolved (what "allow-always" persists). */
  resolvedPaths?: string[];
  /** The resolved executables no pattern or safe bin allowed. */
  missedPaths?: string[];
}

/** The search path `sh` uses when PATH is unset (dash's and bash's built-in default). */
const SHELL_DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Missing or not executable: not a candidate (the shell would not run it either).
    return false;
  }
}

/** The executable a command word runs, or undefined when none is found. */
export function resolveExecutable(params: {
  word: ShellWord;
  cwd: string;
  env: Record<string, string | undefined>;
  home?: string;
}): string | undefined {
  const { word, cwd, env } = params;
  if (word.glob) return undefined;
  let text = word.text;
  if (word.tilde) {
    const home = params.home ?? env.HOME;
    if (!home || !(text === "~" || text.startsWith("~/"))) return undefined;
    text = join(home, text.slice(1));
  }
  if (text.includes("/")) {
    const path = isAbsolute(text) ? text : resolve(cwd, text);
    return isExecutableFile(path) ? path : undefined;
  }
  for (const dir of (env.PATH ?? SHELL_DEFAULT_PATH).split(delimiter)) {
    if (!dir) continue;
    const candidate = join(isAbsolute(dir) ? dir : resolve(cwd, dir), text);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "i");
}

/** Whether an approvals-file pattern matches a resolved executable path. */
export function patternMatches(pattern: string, path: string, home?: string): boolean {
  let text = pattern.trim();
  if (text.startsWith("~")) {
    if (!home) return false;
    text = join(home, text.slice(1));
  }
  if (!text.includes("/")) return false;
  return globToRegExp(text).test(path);
}

/** Checks a command against the safe bins and patterns (see the file comment). */
export function evaluateAllowlist(params: AllowlistParams): AllowlistVerdict {
  const parsed = parseShellCommand(params.command);
  if (!parsed.ok) return { allowed: false, reason: `the command contains ${parsed.reason}` };
  const home = params.home ?? params.env.HOME;
  const resolvedPaths: string[] = [];
  const missedPaths: string[] = [];
  let reason: string | undefined;
  let unresolved = false;
  for (const [first, ...args] of parsed.segments) {
    const word = first!;
    const path = resolveExecutable({
      word,
      cwd: params.cwd,
      env: params.env,
      ...(home ? { home } : {}),
    });
    if (!path) {
      unresolved = true;
      reason ??= `"${word.text}" is not an executable found on PATH (shell builtins are not allowlisted)`;
      continue;
    }
    resolvedPaths.push(path);
    if (params.patterns.some((pattern) => patternMatches(pattern, path, home))) continue;
    const bin = basename(path);
    const bare = !word.text.includes("/") && !word.tilde;
    if (bare && params.safeBins.includes(bin)) {
      const refusal = safeBinRefusal({ bin, args });
      if (!refusal) continue;
      reason ??= `safe bin ${bin} was given ${refusal}`;
    } else {
      reason ??= `${path} is not on the allowlist`;
    }
    missedPaths.push(path);
  }
  return {
    allowed: reason === undefined,
    ...(reason ? { reason } : {}),
    ...(unresolved ? {} : { resolvedPaths }),
    ...(missedPaths.length ? { missedPaths } : {}),
  };
}
