import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { writeFileAtomic, writeFileAtomicAsync } from "./atomic-write.js";

const tempDir = (): string => makeTempDir("pincer-atomic-");
const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe("writeFileAtomic", () => {
  it("creates parent directories and writes with mode 0600 by default", () => {
    const target = join(tempDir(), "a", "b", "file.json");
    writeFileAtomic(target, "hello");
    expect(readFileSync(target, "utf8")).toBe("hello");
    if (process.platform !== "win32") expect(modeOf(target)).toBe(0o600);
  });

  it("replaces an existing file and honours an explicit mode", () => {
    const dir = tempDir();
    const target = join(dir, "file.txt");
    writeFileSync(target, "old", { mode: 0o644 });
    writeFileAtomic(target, Buffer.from("new"), { mode: 0o640 });
    expect(readFileSync(target, "utf8")).toBe("new");
    if (process.platform !== "win32") expect(modeOf(target)).toBe(0o640);
    expect(readdirSync(dir)).toEqual(["file.txt"]);
  });

  it("writes through a symlink instead of replacing it", () => {
    if (process.platform === "win32") return;
    const dir = tempDir();
    writeFileSync(join(dir, "real.json"), "old");
    symlinkSync(join(dir, "real.json"), join(dir, "link.json"));
    writeFileAtomic(join(dir, "link.json"), "new");
    expect(readFileSync(join(dir, "real.json"), "utf8")).toBe("new");
  });

  it("leaves no temp file behind when the write fails", () => {
    const dir = tempDir();
    // A non-empty directory at the target makes the final rename fail after the temp file exists.
    mkdirSync(join(dir, "target"));
    writeFileSync(join(dir, "target", "inside"), "x");
    expect(() => writeFileAtomic(join(dir, "target"), "data")).toThrow();
    expect(readdirSync(dir)).toEqual(["target"]);
  });
});

describe("writeFileAtomicAsync", () => {
  it("writes the same way as the sync version", async () => {
    const target = join(tempDir(), "nested", "file.txt");
    await writeFileAtomicAsync(target, "async");
    expect(readFileSync(target, "utf8")).toBe("async");
    if (process.platform !== "win32") expect(modeOf(target)).toBe(0o600);
  });
});
