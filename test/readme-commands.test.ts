// The README documents the whole CLI: every command of the live command tree (read from `pincer
// completion fish`, which walks commander's own registrations) has a `### ` section under
// "## Commands" whose heading names it, and every flag it takes appears in one of those sections.
// A command or flag added to src/cli without a README line fails here, naming it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";

/** Flags documented once for every command that has them (README "## Commands" intro, `gateway call`). */
const SHARED_FLAGS = new Set([
  "--help",
  "--version",
  "--json",
  "--url",
  "--token",
  "--password",
  "--timeout",
]);

/** One command of the tree: its path from the root and its long flags. */
interface CommandNode {
  path: string[];
  flags: string[];
  children: string[];
}

/** The command tree as the fish completion script lists it. */
function commandTree(fish: string): CommandNode[] {
  const nodes = new Map<string, CommandNode>();
  const node = (key: string) => {
    let found = nodes.get(key);
    if (!found) {
      found = { path: key === "" ? [] : key.split(" "), flags: [], children: [] };
      nodes.set(key, found);
    }
    return found;
  };
  const at = /__pincer_at '\\''([^']*)'\\'''/;
  for (const line of fish.split("\n")) {
    if (!line.startsWith("complete -c pincer -")) continue;
    const where = at.exec(line);
    if (!where) continue;
    const here = node(where[1]);
    const sub = / -a '([a-z][\w-]*)'/.exec(line);
    if (sub) {
      here.children.push(sub[1]);
      node(where[1] === "" ? sub[1] : `${where[1]} ${sub[1]}`);
    }
    const long = / -l ([\w-]+)/.exec(line);
    if (long) here.flags.push(`--${long[1]}`);
  }
  return [...nodes.values()].filter((n) => n.path.length > 0);
}

/** The `### ` sections of the README's "## Commands" part: heading words and whole text. */
function commandSections(readme: string): Array<{ words: string[]; text: string }> {
  const start = readme.indexOf("\n## Commands");
  const end = readme.indexOf("\n## ", start + 1);
  const part = readme.slice(start, end === -1 ? undefined : end);
  return part
    .split("\n### ")
    .slice(1)
    .map((text) => {
      const heading = text.slice(0, text.indexOf("\n"));
      const spans = [...heading.matchAll(/`([^`]*)`/g)].map((m) => m[1]).join(" ");
      return { words: spans.split(/[^a-z-]+/).filter(Boolean), text };
    });
}

/** True when `path` occurs in `words` in order (other words may come between). */
function namesPath(words: string[], path: string[]): boolean {
  let i = 0;
  for (const word of words) if (word === path[i]) i++;
  return i === path.length;
}

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("README documents every command and flag", async () => {
  const sandbox = createCliSandbox();
  const fish = await sandbox.run(["completion", "fish"]);
  const tree = commandTree(fish.stdout);
  const sections = commandSections(readme);

  it("reads the command tree and the README's command sections", () => {
    expect(fish.code).toBe(0);
    expect(tree.map((n) => n.path.join(" "))).toEqual(
      expect.arrayContaining(["gateway run", "config set", "models auth add", "completion"]),
    );
    expect(tree.find((n) => n.path.join(" ") === "gateway run")?.flags).toContain("--port");
    expect(sections.length).toBeGreaterThan(20);
    expect(
      namesPath(["pincer", "gateway", "install", "port", "status"], ["gateway", "status"]),
    ).toBe(true);
    expect(namesPath(["pincer", "status"], ["gateway", "status"])).toBe(false);
  });

  it("every command has a section whose heading names it", () => {
    const missing = tree
      .filter((n) => !sections.some((s) => namesPath(s.words, n.path)))
      .map((n) => `pincer ${n.path.join(" ")}`);
    expect(missing).toEqual([]);
  });

  it("every flag of a command appears in one of its sections", () => {
    const missing: string[] = [];
    for (const n of tree) {
      const own = sections.filter((s) => namesPath(s.words, n.path));
      for (const flag of n.flags) {
        if (SHARED_FLAGS.has(flag)) continue;
        const documented = own.some((s) => new RegExp(`${flag}(?![\\w-])`).test(s.text));
        if (!documented) missing.push(`pincer ${n.path.join(" ")} ${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the shared flags are documented once", () => {
    for (const flag of SHARED_FLAGS) expect(readme, flag).toMatch(new RegExp(`${flag}(?![\\w-])`));
  });
});
