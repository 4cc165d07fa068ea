import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateAllowlist, patternMatches } from "./allowlist.js";
import { DEFAULT_SAFE_BINS } from "./safe-bins.js";
import { parseShellCommand } from "./shell-words.js";

const root = mkdtempSync(join(tmpdir(), "pincer-allowlist-"));
const bin = join(root, "bin");
const cwd = join(root, "work");
mkdirSync(bin);
mkdirSync(cwd);
for (const name of ["jq", "grep", "sort", "head", "uniq", "tr", "wc", "rg", "cat"]) {
  writeFileSync(join(bin, name), "#!/bin/sh\n");
  chmodSync(join(bin, name), 0o755);
}
writeFileSync(join(cwd, "notes.txt"), "x");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = { PATH: bin, HOME: root };
const check = (command: string, patterns: string[] = []) =>
  evaluateAllowlist({ command, cwd, env, patterns, safeBins: DEFAULT_SAFE_BINS });

describe("parseShellCommand", () => {
  it("splits pipelines and lists into simple commands, quotes removed", () => {
    const parsed = parseShellCommand(`grep -n 'a b' | sort && wc -l; head "-n" 2`);
    expect(parsed.ok && parsed.segments.map((s) => s.map((w) => w.text))).toEqual([
      ["grep", "-n", "a b"],
      ["sort"],
      ["wc", "-l"],
      ["head", "-n", "2"],
    ]);
  });

  it.each([
    ["echo $(id)", "variable or command substitution"],
    ["echo `id`", "command substitution"],
    ['echo "$HOME"', "inside double quotes"],
    ["cat < /etc/passwd", "redirection"],
    ["ls > out", "redirection"],
    ["sleep 1 &", "background"],
    ["(ls)", "subshell"],
    ["FOO=1 ls", "environment assignment"],
    ["if true; then ls; fi", "keyword"],
    ["ls # c", "comment"],
    ["echo 'open", "unterminated"],
    ["ls |", "trailing separator"],
    ["ls || ", "trailing separator"],
    ["ls ;; ls", '";;"'],
  ])("refuses %s (%s)", (command, reason) => {
    const parsed = parseShellCommand(command);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toContain(reason);
  });
});

describe("evaluateAllowlist", () => {
  it("allows safe bins reading stdin, every segment checked", () => {
    expect(check("jq .name | sort -k 2 | uniq | head -n 5 | wc -l")).toMatchObject({
      allowed: true,
      resolvedPaths: [
        join(bin, "jq"),
        join(bin, "sort"),
        join(bin, "uniq"),
        join(bin, "head"),
        join(bin, "wc"),
      ],
    });
    expect(check("grep -e foo -i").allowed).toBe(true);
    expect(check("tr a-z A-Z").allowed).toBe(true);
    // The pattern or filter word is never a file, whatever it looks like.
    expect(check("grep /etc/passwd").allowed).toBe(true);
    expect(check("jq '.[0].name'").allowed).toBe(true);
  });

  it.each([
    ["grep foo notes.txt", "file arguments"],
    ["grep foo ./x", "file arguments"],
    ["grep foo /etc/passwd", "file arguments"],
    ["grep -e foo notes.txt", "file arguments"],
    ["jq .[]", "a glob"],
    ["sort -o out", "reads or writes files"],
    ["sort --output=out", "reads or writes files"],
    ["grep -rn foo", "reads or writes files"],
    ["jq -f prog.jq", "reads or writes files"],
    ["head notes.txt", "file arguments"],
    ["uniq - out", "file arguments"],
    ["jq . *.json", "file arguments"],
    ["cat notes.txt", "is not on the allowlist"],
    ["./jq .", "is not an executable found on PATH"],
    [`${bin}/jq .`, "is not on the allowlist"],
  ])("misses %s", (command, reason) => {
    const verdict = check(command);
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toContain(reason);
  });

  it("one missing segment makes the whole line a miss, naming the executable", () => {
    const verdict = check("jq . | cat");
    expect(verdict).toMatchObject({ allowed: false, missedPaths: [join(bin, "cat")] });
    expect(check("cd /tmp && jq .")).toMatchObject({ allowed: false });
    expect(check("cd /tmp && jq .").reason).toContain('"cd" is not an executable found on PATH');
  });

  it("matches approvals-file patterns on the resolved path, case-insensitively; basenames are ignored", () => {
    expect(check("rg -n TODO src", [join(bin, "rg")]).allowed).toBe(true);
    expect(check("rg -n TODO", [`${bin.toUpperCase()}/*`]).allowed).toBe(true);
    expect(check("rg -n TODO", ["~/**/rg"]).allowed).toBe(true);
    expect(check("rg -n TODO", ["rg"]).allowed).toBe(false);
    expect(check("cat notes.txt | rg x", [join(bin, "cat"), join(bin, "rg")]).allowed).toBe(true);
  });

  it("globs: * stays within a directory, ** crosses", () => {
    expect(patternMatches("/opt/*/rg", "/opt/a/rg")).toBe(true);
    expect(patternMatches("/opt/*/rg", "/opt/a/b/rg")).toBe(false);
    expect(patternMatches("/opt/**/rg", "/opt/a/b/rg")).toBe(true);
    expect(patternMatches("/opt/r?", "/opt/rg")).toBe(true);
    expect(patternMatches("/opt/r.", "/opt/rg")).toBe(false);
  });
});
