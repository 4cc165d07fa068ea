// Removal of a test's temp dir when the test that made it ends (or, for a dir made while the
// file's tests are collected, when the file's tests end). Vitest cannot attach a cleanup from
// inside beforeAll: a dir made there must be removed by the file's own afterAll.
// Cleanups run in reverse order of registration, so a store opened in a temp dir (and closed with
// closeWhenDone) is closed before its dir is removed: a store left open would otherwise append its
// coalesced journal write on the next tick and recreate the removed dir.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** Removes `dir` (recursively) once the current test, else the current file's tests, are done. */
export function removeWhenDone(dir: string): void {
  whenDone(() => rmSync(dir, { recursive: true, force: true }));
}

/** Something holding files open until closed (a session store, a transcript). */
export interface Closable {
  close(): unknown;
}

/** Closes `resource` (awaited) when the current test, else the current file's tests, are done. */
export function closeWhenDone<T extends Closable>(resource: T): T {
  whenDone(async () => {
    await resource.close();
  });
  return resource;
}

function whenDone(cleanup: () => unknown): void {
  try {
    onTestFinished(async () => {
      await cleanup();
    });
  } catch (notInTest) {
    // Outside a running test (describe body or beforeAll): vitest refuses onTestFinished there.
    if (!String(notInTest).includes("onTestFinished")) throw notInTest;
    afterAll(async () => {
      await cleanup();
    });
  }
}

/** A fresh temp dir named `<prefix>XXXXXX`, removed like {@link removeWhenDone}. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  removeWhenDone(dir);
  return dir;
}
