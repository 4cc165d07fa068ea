// Commands never reach for the global process object: every fact and hook they need (pid, platform,
// node binary, signals, env, streams) comes with the CliIo, which only main.ts fills from the real
// process. Scans the sources under src/cli (comments aside); tests may use process freely.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI_DIR = fileURLToPath(new URL(".", import.meta.url));
/** The one module allowed to touch the process: it builds the io. */
const ALLOWED = new Set(["main.ts"]);

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The code of a source with its comments blanked (a comment may name process.* to forbid it). */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** `file:line` of every use of the global process in the sources under `dir`. */
function processUses(dir: string): string[] {
  return sourcesUnder(dir)
    .filter((path) => !ALLOWED.has(relative(dir, path)))
    .flatMap((path) =>
      codeOf(readFileSync(path, "utf8"))
        .split("\n")
        .flatMap((line, i) =>
          /(^|[^\w.$])process\s*\.|globalThis\.process\b/.test(line)
            ? [`${relative(dir, path)}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
}

describe("src/cli", () => {
  it("touches process.* only in main.ts", () => {
    expect(processUses(CLI_DIR)).toEqual([]);
  });
});
