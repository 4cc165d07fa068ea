// Removal of a test's temp dir when the test that made it ends (or, for a dir made while the
// file's tests are collected, when the file's tests end). Vitest cannot attach a cleanup from
// inside beforeAll: a dir made there must be removed by the file's own afterAll.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** Removes `dir` (recursively) once the current test, else the current file's tests, are done. */
export function removeWhenDone(dir: string): void {
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch (notInTest) {
    // Outside a running test (describe body or beforeAll): vitest refuses onTestFinished there.
    if (!String(notInTest).includes("onTestFinished")) throw notInTest;
    afterAll(remove);
  }
}

/** A fresh temp dir named `<prefix>XXXXXX`, removed like {@link removeWhenDone}. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  removeWhenDone(dir);
  return dir;
}
