// Vitest global setup of the whole run: every test's temp dirs go to one private folder
// (TMPDIR, inherited by workers and spawned gateways) that is removed when the run ends;
// anything a test left in it fails the run, by name, so a leak is fixed, not piled up in /tmp (a
// warning alone let new leaks in unnoticed).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const RUN_DIR_VAR = "PINCER_TEST_RUN_TMPDIR";

/** Points TMPDIR at a fresh folder; the returned teardown removes it and fails on leftovers. */
export default function setup(): () => void {
  // Projects inherit the root's global setup: the first call owns the folder, later ones reuse it.
  if (process.env[RUN_DIR_VAR]) return () => {};
  // A short name: Chromium's singleton socket path under TMPDIR must stay under 108 bytes.
  const runDir = mkdtempSync(join(tmpdir(), "pincer-t-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = runDir;
  process.env[RUN_DIR_VAR] = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[RUN_DIR_VAR];
    const left = readdirSync(runDir);
    if (left.length > 0) {
      const prefixes = new Map<string, number>();
      for (const name of left) {
        const prefix = name.replace(/[-_.]?[A-Za-z0-9]{6}$/, "");
        prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1);
      }
      const list = [...prefixes].map(([prefix, n]) => `${prefix} ×${n}`).join(", ");
      // Vitest only logs an error thrown here and still exits 0: set the exit code instead.
      console.error(
        `\n✗ tests left ${left.length} temp entries (removed now): ${list}\n  A test did not ` +
          "remove its temp dir, or something it left open (a store, a gateway) wrote into the dir " +
          "after it was removed.\n",
      );
      process.exitCode = 1;
    }
    rmSync(runDir, { recursive: true, force: true });
  };
}
