// Comments, test names and READMEs say the rule itself, never "see a document": a reader of the repo
// does not have the private notes, spec documents or issue texts the code was written from. This
// scans the repo's sources for such citations and names each one as file:line. "OpenClaw does X"
// is fine (OpenClaw is public); so are the verb "seed" and PRNG seeds.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "..");
const ROOTS = ["src", "test", "bench", "scripts", ".ci", "README.md"];
const SCANNED = /(\.(ts|mts|js|mjs|md|html|css|sh)|\/\.ci\/[^/.]+)$/;
const SELF = "test/no-document-citations.test.ts";

/** Citations wherever they appear (code, strings, comments, prose). */
const CITATIONS: readonly RegExp[] = [
  /openclaw-notes/i,
  /§\s*\d/,
  /\bnotes\s+§/i,
  /\bthe seeds?\b/i,
  /\bseeds'/i,
  /\bseed (documents?|docs?|examples?|default|order)\b/i,
  /shared\/(seeds|reference)\b/i,
  /\b(ecosystem|machine-notes|user-pain|style)\.md\b/i,
  /\b(per|in|see) the spec\b/i,
  /\bthe spec(\s+says|'s)\b/i,
  /(^|\s)\(spec\)/i,
  /\bspec section\b/i,
  /\breference notes\b/i,
  // "The reference" meant OpenClaw or its notes: name OpenClaw, or say "a media/model reference".
  /\bthe reference\b/i,
];

/** Issue numbers are citations in comments and test names; compat strings shown to users may
 * name the issue that would implement a key. */
const COMMENT_CITATIONS: readonly RegExp[] = [/\bissues?\s+#?\d+/i];

/** Whether a line of source is (the rest of) a comment or names a test; README lines are prose. */
function isCommentLine(line: string, file: string): boolean {
  if (file.endsWith(".md")) return false;
  const trimmed = line.trim();
  return (
    /^(\/\/|\/\*|\*|#)/.test(trimmed) ||
    /\s\/\/\s/.test(line) ||
    /\b(it|describe|test)(\.each\(.*\))?\(\s*["'`]/.test(line)
  );
}

/** Citations found in one file's text, as `file:line: text`. */
function findCitations(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    const patterns = isCommentLine(line, file) ? [...CITATIONS, ...COMMENT_CITATIONS] : CITATIONS;
    if (patterns.some((pattern) => pattern.test(line))) {
      found.push(`${file}:${index + 1}: ${line.trim()}`);
    }
  });
  return found;
}

function walk(path: string, out: string[]): void {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) walk(join(path, name), out);
  } else if (SCANNED.test(path) && !path.includes(".generated.")) {
    out.push(path);
  }
}

function repoFiles(): string[] {
  const files: string[] = [];
  for (const root of ROOTS) {
    const path = join(REPO, root);
    try {
      walk(path, files);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  return files.map((file) => relative(REPO, file)).filter((file) => file !== SELF);
}

describe("no citations of documents a reader does not have", () => {
  it("finds none in src/, test/, bench/, scripts/, .ci/ and the README", () => {
    const found = repoFiles().flatMap((file) =>
      findCitations(file, readFileSync(join(REPO, file), "utf8")),
    );
    expect(found, "say the rule itself instead of citing a document").toEqual([]);
  });

  it("flags each kind of citation and names file:line", () => {
    const cited = [
      "// as described in openclaw-notes §4",
      "/** Defaults the seeds imply. */",
      "// the seeds' family agent",
      "// Every example of the seed documents must validate.",
      "// the reference's fallback",
      "// per the spec, 5 minutes",
      "// 5 minutes (spec)",
      "// Embedded agent runtime (issue 4): the cost of a turn",
      "- see ecosystem.md for the chunk format",
      'it("marks what issue 11 lists", () => {',
      'it("speaks protocol 3 (the reference test vector)", async () => {',
    ];
    for (const line of cited) {
      expect(findCitations("src/x.ts", `const a = 1;\n${line}`), line).toEqual([
        `src/x.ts:2: ${line}`,
      ]);
    }
  });

  it("leaves the rule itself, the verb seed, PRNG seeds and user-facing issue names alone", () => {
    const plain = [
      "// On start the host seeds the dedupe with every journaled key.",
      "const fuzzed = fuzzedUpdates({ seed: 7, count: 150 });",
      "for (const spec of specs) kept.push(formatBindSpec(spec));",
      "/** Sections a minimal prompt leaves out, as OpenClaw's minimal mode does. */",
      'ui: acceptedForCompat(UiConfigSchema, "issue 17 (Control UI)"),',
      "// A local media reference (absolute or relative) is checked before upload.",
    ];
    for (const line of plain) expect(findCitations("src/x.ts", line), line).toEqual([]);
    expect(findCitations("README.md", "| WhatsApp | not yet (issue 15) |")).toEqual([]);
  });
});
