import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readFileStamp, sameFileStamp } from "./file-stamp.js";

describe("file stamps", () => {
  it("change on an append and an atomic rewrite of the same size; absent files compare equal", () => {
    const dir = makeTempDir("pincer-stamp-");
    const path = join(dir, "a.json");
    expect(readFileStamp(path)).toBeUndefined();
    expect(readFileStamp(join(path, "below-a-file"))).toBeUndefined();
    expect(sameFileStamp(undefined, undefined)).toBe(true);
    writeFileSync(path, "one");
    const first = readFileStamp(path);
    expect(sameFileStamp(first, readFileStamp(path))).toBe(true);
    writeFileSync(path, "one+", { flag: "a" });
    const appended = readFileStamp(path);
    expect(sameFileStamp(first, appended)).toBe(false);
    writeFileAtomic(path, "two+");
    expect(sameFileStamp(appended, readFileStamp(path))).toBe(false);
    expect(sameFileStamp(first, undefined)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
