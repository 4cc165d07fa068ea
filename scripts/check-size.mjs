// Fails when any source file exceeds the hard line limit (house rule: aim under 400, never over 500).
// Generated files (*.generated.*) are exempt.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const LIMIT = 500;
const roots = ["src", "test", "bench", "scripts"];
const offenders = [];

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.includes(".generated.")) {
      const lines = readFileSync(path, "utf8").split("\n").length;
      if (lines > LIMIT) offenders.push(`${path}: ${lines} lines (limit ${LIMIT})`);
    }
  }
}

for (const root of roots) {
  try {
    walk(root);
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
  }
}
if (offenders.length > 0) {
  console.error(`Files over ${LIMIT} lines:\n  ${offenders.join("\n  ")}`);
  process.exit(1);
}
console.log(`size check: every source file is at most ${LIMIT} lines`);
