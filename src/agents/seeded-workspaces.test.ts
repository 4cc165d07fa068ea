import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { SeededWorkspaces } from "./seeded-workspaces.js";

describe("SeededWorkspaces", () => {
  it("seeds once per process until told the workspace is gone", async () => {
    const dir = join(makeTempDir("pincer-seeded-"), "ws");
    const seeded = new SeededWorkspaces();
    await seeded.ensure({ dir });
    expect(existsSync(join(dir, "AGENTS.md"))).toBe(true);
    rmSync(join(dir, "AGENTS.md"));
    await seeded.ensure({ dir });
    expect(existsSync(join(dir, "AGENTS.md"))).toBe(false); // not re-seeded: once per process
    seeded.forget(dir);
    await seeded.ensure({ dir });
    expect(existsSync(join(dir, "AGENTS.md"))).toBe(true);
  });
});
