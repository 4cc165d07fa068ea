import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { findPackageRoot } from "./package-root.js";

describe("findPackageRoot", () => {
  it("walks up from a nested module past foreign and broken package.json files", () => {
    const root = makeTempDir("pincer-root-");
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "pincer", version: "0.0.0" }));
    const dist = join(root, "dist", "bin");
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(root, "dist", "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dist, "package.json"), "{ not json");
    const nested = join(root, "node_modules", "dep");
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, "package.json"), JSON.stringify({ name: "dep" }));
    const chunk = join(dist, "skills-list-abc123.js");
    writeFileSync(chunk, "");
    expect(findPackageRoot(pathToFileURL(chunk).href)).toBe(root);
    expect(findPackageRoot(join(nested, "index.js"))).toBe(root);
    expect(findPackageRoot(root)).toBe(root);
  });

  it("returns undefined outside any pincer package", () => {
    const lonely = makeTempDir("pincer-none-");
    expect(findPackageRoot(pathToFileURL(join(lonely, "x.js")).href)).toBeUndefined();
  });

  it("finds this repository from its own source", () => {
    expect(findPackageRoot(import.meta.url)).toBe(
      fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, ""),
    );
  });
});
