// Every config block of README.md (and of each area's src/**/README.md) validates as pasted: each
// fenced ```json5 (or ```json / ```jsonc) block is a whole `openclaw.json` and is loaded by the real
// loader (src/config loadConfig) with a temp HOME and an EMPTY environment: zero errors. A block that uses `${VAR}` gets VAR only when the paragraph right
// above it names it (`VAR` in backticks), so a reader who pastes it knows what to set. A block that is
// deliberately a fragment says so on the line right above its fence: <!-- readme: fragment -->.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/index.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

/** One fenced json5 block of a Markdown text, with what the text right above it says. */
interface ReadmeConfigBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The block's text. */
  text: string;
  /** The paragraph right above the fence (up to the previous blank line or heading). */
  intro: string;
  /** Marked `<!-- readme: fragment -->`: not a whole config, not validated. */
  fragment: boolean;
}

const FRAGMENT_MARK = "<!-- readme: fragment -->";
/** Fence languages a config is written in; every such block is checked. */
const CONFIG_LANGUAGES = new Set(["json5", "json", "jsonc"]);
const ENV_REFERENCE = /(?<!\$)\$\{([A-Z_][A-Z0-9_]*)\}/g;
const NAMED_VARIABLE = /`(?:\$\{)?([A-Z_][A-Z0-9_]*)\}?`/g;

/** Every fenced config block (json5, json, jsonc) of `markdown`, each with its intro paragraph and fragment mark. */
function readmeConfigBlocks(markdown: string): ReadmeConfigBlock[] {
  const lines = markdown.split("\n");
  const blocks: ReadmeConfigBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,}|~{3,})\s*(\S*)/.exec(lines[i]);
    if (!fence) continue;
    // A closing fence is the fence's characters alone (CommonMark: it has no info string).
    const close = lines.findIndex(
      (line, j) => j > i && line.trim().startsWith(fence[1]) && /^(`+|~+)$/.test(line.trim()),
    );
    const end = close === -1 ? lines.length : close;
    if (CONFIG_LANGUAGES.has(fence[2].toLowerCase())) {
      let start = i - 1;
      const fragment = lines[start]?.trim() === FRAGMENT_MARK;
      if (fragment) start--;
      const intro: string[] = [];
      for (let j = start; j >= 0 && lines[j].trim() !== "" && !lines[j].startsWith("#"); j--) {
        intro.unshift(lines[j]);
      }
      blocks.push({
        line: i + 1,
        text: lines.slice(i + 1, end).join("\n"),
        intro: intro.join("\n"),
        fragment,
      });
    }
    i = end;
  }
  return blocks;
}

/** The `${VAR}` names a block uses, and those its intro names. */
function blockVariables(block: ReadmeConfigBlock): { used: string[]; named: string[] } {
  const used = [...new Set([...block.text.matchAll(ENV_REFERENCE)].map((m) => m[1]))];
  const named = [...new Set([...block.intro.matchAll(NAMED_VARIABLE)].map((m) => m[1]))];
  return { used, named };
}

/** Loads `text` as the whole openclaw.json of a fresh HOME, with only the README-named variables. */
function validate(text: string, variables: string[]) {
  const home = makeTempDir("pincer-readme-");
  mkdirSync(join(home, ".openclaw"));
  writeFileSync(join(home, ".openclaw", "openclaw.json"), text);
  const env: Record<string, string> = { HOME: home };
  for (const name of variables) env[name] = `readme-placeholder-${name.toLowerCase()}`;
  return loadConfig({ env });
}

/** `${NAME}`, the config's environment reference. */
const ref = (name: string) => `$\{${name}}`;

const root = fileURLToPath(new URL("..", import.meta.url));

/** The area READMEs under src/ (relative paths), found by walking the tree. */
function areaReadmes(dir = join(root, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return areaReadmes(path);
    return entry.name === "README.md" ? [relative(root, path)] : [];
  });
}

const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = readmeConfigBlocks(readme);
const configs = blocks.filter((block) => !block.fragment);
const areaConfigs = areaReadmes().flatMap((file) =>
  readmeConfigBlocks(readFileSync(join(root, file), "utf8"))
    .filter((block) => !block.fragment)
    .map((block) => [`${file}:${block.line}`, block] as const),
);

describe("README config blocks, pasted as is", () => {
  it("finds the blocks (the scenarios and the channel example)", () => {
    expect(configs.length).toBeGreaterThanOrEqual(8);
  });

  it.each([...configs.map((block) => [`README.md:${block.line}`, block] as const), ...areaConfigs])(
    "%s validates with an empty environment plus the variables named above it",
    (_where, block) => {
      const { used, named } = blockVariables(block);
      const unnamed = used.filter((name) => !named.includes(name));
      expect(unnamed, `\${VAR}s used but not named right above the block`).toEqual([]);
      const loaded = validate(
        block.text,
        used.filter((name) => named.includes(name)),
      );
      const errors = loaded.issues.filter((issue) => issue.severity === "error");
      expect(errors.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([]);
      expect(loaded.valid).toBe(true);
    },
  );

  it("reads intros, variables and fragment marks the way the README writes them", () => {
    const text = [
      "## Example",
      `Set \`TOKEN_A\` and \`${ref("TOKEN_B")}\` first:`,
      "```json5",
      `{ a: "${ref("TOKEN_A")}", b: "${ref("TOKEN_B")}", c: "$${ref("LITERAL")}" }`,
      "```",
      "",
      "A fragment:",
      FRAGMENT_MARK,
      "```json5",
      "agents: {",
      "```",
      "```sh",
      "```json5 inside sh is not a block",
      "```",
      "```json",
      '{ "gateway": { "port": 18789 } }',
      "```",
    ].join("\n");
    const found = readmeConfigBlocks(text);
    expect(found.map((b) => [b.line, b.fragment])).toEqual([
      [3, false],
      [9, true],
      [15, false],
    ]);
    expect(areaReadmes()).toEqual(expect.arrayContaining(["src/config/README.md"]));
    expect(blockVariables(found[0])).toEqual({
      used: ["TOKEN_A", "TOKEN_B"],
      named: ["TOKEN_A", "TOKEN_B"],
    });
    expect(found[1].intro).toBe("A fragment:");
    // A variable the README does not name is not set: the loader reports it unset.
    const loaded = validate(`{ gateway: { auth: { token: "${ref("UNNAMED_TOKEN")}" } } }`, []);
    expect(loaded.valid).toBe(false);
    expect(JSON.stringify(loaded.issues)).toContain("UNNAMED_TOKEN");
  });
});
