// `tools.exec.safeBins`: stdin-only binaries that run in allowlist mode without an allowlist entry
// (OpenClaw's default list). A safe bin may only filter its input: file arguments (a positional word
// beyond the bin's pattern/filter/sets), globs and the options that read or write files make the
// segment a miss. The known bins say how
// many positional words they take (grep's pattern, jq's filter, tr's sets) and which options take a
// value; a bin added by the user takes no positional word at all.
import type { ShellWord } from "./shell-words.js";

/** OpenClaw's default safe bins (when `tools.exec.safeBins` is not set). */
export const DEFAULT_SAFE_BINS: readonly string[] = [
  "jq",
  "grep",
  "cut",
  "sort",
  "uniq",
  "head",
  "tail",
  "tr",
  "wc",
];

interface SafeBinRule {
  /** Positional words allowed (none of them may name a file). */
  positional: number;
  /** Options that take values, with how many words follow. */
  values: Record<string, number>;
  /** Options that read or write files (or recurse): always a miss. */
  denied: readonly string[];
}

const NO_RULE: SafeBinRule = { positional: 0, values: {}, denied: [] };

const RULES: Record<string, SafeBinRule> = {
  jq: {
    positional: 1,
    values: { "--arg": 2, "--argjson": 2, "--indent": 1 },
    denied: ["-f", "--from-file", "--rawfile", "--slurpfile", "-L", "--args", "--jsonargs"],
  },
  grep: {
    positional: 1,
    values: { "-e": 1, "--regexp": 1, "-m": 1, "--max-count": 1, "-A": 1, "-B": 1, "-C": 1 },
    denied: [
      "-f",
      "--file",
      "-r",
      "-R",
      "--recursive",
      "--dereference-recursive",
      "-d",
      "--directories",
      "-D",
      "--devices",
      "--include",
      "--exclude",
      "--exclude-from",
      "--exclude-dir",
    ],
  },
  cut: {
    positional: 0,
    values: { "-d": 1, "-f": 1, "-b": 1, "-c": 1, "--output-delimiter": 1 },
    denied: [],
  },
  sort: {
    positional: 0,
    values: { "-k": 1, "--key": 1, "-t": 1, "--field-separator": 1, "-S": 1 },
    denied: [
      "-o",
      "--output",
      "-T",
      "--temporary-directory",
      "--files0-from",
      "--compress-program",
      "--random-source",
    ],
  },
  uniq: { positional: 0, values: { "-f": 1, "-s": 1, "-w": 1 }, denied: [] },
  head: { positional: 0, values: { "-n": 1, "-c": 1, "--lines": 1, "--bytes": 1 }, denied: [] },
  tail: { positional: 0, values: { "-n": 1, "-c": 1, "--lines": 1, "--bytes": 1 }, denied: [] },
  tr: { positional: 2, values: {}, denied: [] },
  wc: { positional: 0, values: {}, denied: ["--files0-from"] },
};

/** Checks one option word; returns how many following words are its values, or a miss reason. */
function optionVerdict(rule: SafeBinRule, text: string): number | string {
  if (text.startsWith("--")) {
    const [name, attached] = text.split("=", 2) as [string, string?];
    if (rule.denied.includes(name)) return `option ${name} reads or writes files`;
    if (attached?.includes("/")) return `option value "${attached}"`;
    return attached === undefined ? (rule.values[name] ?? 0) : 0;
  }
  for (let k = 1; k < text.length; k++) {
    const flag = `-${text[k]}`;
    if (rule.denied.includes(flag)) return `option ${flag} reads or writes files`;
    const takes = rule.values[flag];
    if (takes !== undefined) return k === text.length - 1 ? takes : 0;
  }
  return 0;
}

/** Why the arguments of a safe-bin segment are not stdin-only (undefined: they are). */
export function safeBinRefusal(params: {
  bin: string;
  args: readonly ShellWord[];
}): string | undefined {
  const { bin, args } = params;
  const rule = RULES[bin] ?? NO_RULE;
  let positional = 0;
  let options = true;
  let i = 0;
  const explicitPattern = args.some((w) => w.text === "-e" || w.text.startsWith("--regexp"));
  const limit = bin === "grep" && explicitPattern ? 0 : rule.positional;
  while (i < args.length) {
    const word = args[i]!;
    i++;
    if (options && word.text === "--") {
      options = false;
      continue;
    }
    if (options && word.text.startsWith("-") && word.text !== "-") {
      if (word.glob) return `the glob in "${word.text}"`;
      const verdict = optionVerdict(rule, word.text);
      if (typeof verdict === "string") return verdict;
      i += verdict;
      continue;
    }
    positional++;
    if (positional > limit)
      return `"${word.text}" (a safe bin reads stdin only, no file arguments)`;
    // The words within the limit are patterns, filters or sets, never files; a glob could expand
    // to several words (file names).
    if (word.glob) return `"${word.text}", a glob that may expand to file names`;
  }
  return undefined;
}
