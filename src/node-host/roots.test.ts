// Root confinement on real temp dirs: relative and absolute paths inside a root resolve; `..`,
// absolute paths elsewhere and symlinks leading out are refused for reads and writes; a missing file
// is NOT_FOUND; a write needs an existing directory and never goes through a symlink.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isInside, realRoots, resolveInRoots } from "./roots.js";

let base: string;
let roots: string[];
beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "pincer-roots-"));
  mkdirSync(join(base, "root", "sub"), { recursive: true });
  writeFileSync(join(base, "root", "a.txt"), "a");
  writeFileSync(join(base, "outside.txt"), "x");
  symlinkSync(join(base, "outside.txt"), join(base, "root", "out-link"));
  symlinkSync(join(base, "root", "a.txt"), join(base, "root", "in-link"));
  symlinkSync(base, join(base, "root", "dir-link"));
  roots = await realRoots([join(base, "root")]);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const read = (requested: string) => resolveInRoots({ roots, requested, access: "read" });
const write = (requested: string) => resolveInRoots({ roots, requested, access: "write" });

describe("resolveInRoots", () => {
  it("resolves paths inside the root, relative or absolute, and symlinks that stay inside", async () => {
    expect(await read("a.txt")).toEqual({ ok: true, path: join(roots[0]!, "a.txt") });
    expect(await read(join(roots[0]!, "a.txt"))).toMatchObject({ ok: true });
    expect(await read("in-link")).toEqual({ ok: true, path: join(roots[0]!, "a.txt") });
    expect(await write("sub/new.txt")).toEqual({
      ok: true,
      path: join(roots[0]!, "sub", "new.txt"),
    });
  });

  it("refuses .. , other absolute paths and symlinks out, for reads and writes", async () => {
    for (const path of [
      "../outside.txt",
      join(base, "outside.txt"),
      "out-link",
      "dir-link/outside.txt",
      "sub/../../outside.txt",
    ]) {
      expect(await read(path), path).toMatchObject({
        ok: false,
        error: { code: "PERMISSION_DENIED" },
      });
    }
    for (const path of ["../new.txt", "out-link", "in-link", "dir-link/new.txt"]) {
      expect(await write(path), path).toMatchObject({
        ok: false,
        error: { code: "PERMISSION_DENIED" },
      });
    }
  });

  it("missing files and directories are NOT_FOUND; no roots refuses everything", async () => {
    expect(await read("nope.txt")).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(await write("no-dir/x.txt")).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(await resolveInRoots({ roots: [], requested: "a.txt", access: "read" })).toMatchObject({
      ok: false,
      error: { code: "PERMISSION_DENIED" },
    });
  });

  it("isInside is by path segments, not string prefix", () => {
    expect(isInside("/srv/root", "/srv/root")).toBe(true);
    expect(isInside("/srv/root", "/srv/root/x")).toBe(true);
    expect(isInside("/srv/root", "/srv/rootx")).toBe(false);
    expect(isInside("/srv/root", "/srv")).toBe(false);
  });

  it("a root that does not exist is an error naming it", async () => {
    await expect(realRoots([join(base, "missing")])).rejects.toThrow(/missing cannot be used/);
  });
});
