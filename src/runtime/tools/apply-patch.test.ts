import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { applyChunks, createApplyPatchTool } from "./apply-patch.js";
import { parsePatch } from "./apply-patch-parse.js";
import { invokeTool } from "./invoke.js";

function workspace(): string {
  return makeTempDir("pincer-tools-patch-");
}

function text(outcome: { content: Array<{ type: string; text?: string }> }): string {
  return outcome.content.map((block) => block.text ?? "").join("\n");
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("parsePatch", () => {
  it("parses add, delete and update (with move and anchored hunks)", () => {
    const ops = parsePatch(
      patch(
        "*** Add File: docs/new.md",
        "+# New",
        "+",
        "*** Delete File: old.txt",
        "*** Update File: src/a.ts",
        "*** Move to: src/b.ts",
        "@@ function greet() {",
        "-  return 1;",
        "+  return 2;",
        " }",
        "*** End of File",
      ),
    );
    expect(ops).toEqual([
      { kind: "add", path: "docs/new.md", content: "# New\n\n" },
      { kind: "delete", path: "old.txt" },
      {
        kind: "update",
        path: "src/a.ts",
        moveTo: "src/b.ts",
        chunks: [
          {
            anchor: "function greet() {",
            oldLines: ["  return 1;", "}"],
            newLines: ["  return 2;", "}"],
            endOfFile: true,
          },
        ],
      },
    ]);
  });

  it("names the bad line in errors", () => {
    expect(() => parsePatch("*** Update File: a\n")).toThrow(
      'first line must be "*** Begin Patch"',
    );
    expect(() => parsePatch("*** Begin Patch\n*** Add File: a\n+x")).toThrow("*** End Patch");
    expect(() => parsePatch(patch("*** Add File: a", "oops"))).toThrow(
      "Invalid patch (line 3): lines of an added file must start with '+'.",
    );
    expect(() => parsePatch(patch("*** Frobnicate: a"))).toThrow("(line 2)");
    expect(() => parsePatch(patch("*** Update File: a"))).toThrow("at least one hunk");
    expect(() => parsePatch(patch())).toThrow("no file operations");
  });
});

describe("applyChunks", () => {
  it("applies hunks in order, tolerating trailing whitespace differences", () => {
    const original = "a\nb  \nc\nd\ne\n";
    const [op] = parsePatch(patch("*** Update File: f", "@@", " a", "-b", "+B", "@@", "-e", "+E"));
    if (op.kind !== "update") throw new Error("expected update");
    expect(applyChunks({ original, chunks: op.chunks, shown: "f" })).toBe("a\nB\nc\nd\nE\n");
  });

  it("appends a pure addition at the end of the file", () => {
    const [op] = parsePatch(patch("*** Update File: f", "@@", "+z"));
    if (op.kind !== "update") throw new Error("expected update");
    expect(applyChunks({ original: "x\ny\n", chunks: op.chunks, shown: "f" })).toBe("x\ny\nz\n");
  });
});

describe("apply_patch tool", () => {
  it("adds, updates, moves and deletes files", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "keep.txt"), "one\ntwo\nthree\n");
    writeFileSync(join(dir, "gone.txt"), "bye\n");
    writeFileSync(join(dir, "from.txt"), "move me\n");
    const tool = createApplyPatchTool({ workspaceDir: dir, workspaceOnly: true });
    const out = await invokeTool({
      tool,
      args: {
        input: patch(
          "*** Add File: new/hello.txt",
          "+hello",
          "*** Update File: keep.txt",
          "@@",
          " one",
          "-two",
          "+TWO",
          "*** Delete File: gone.txt",
          "*** Update File: from.txt",
          "*** Move to: to.txt",
          "@@",
          "-move me",
          "+moved",
        ),
      },
    });
    expect(out.isError).toBe(false);
    expect(text(out)).toBe(
      "Success. Updated the following files:\nA new/hello.txt\nM keep.txt\nD gone.txt\nM to.txt",
    );
    expect(readFileSync(join(dir, "new", "hello.txt"), "utf8")).toBe("hello\n");
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("one\nTWO\nthree\n");
    expect(existsSync(join(dir, "gone.txt"))).toBe(false);
    expect(existsSync(join(dir, "from.txt"))).toBe(false);
    expect(readFileSync(join(dir, "to.txt"), "utf8")).toBe("moved\n");
  });

  it("writes nothing when a hunk does not apply", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    const tool = createApplyPatchTool({ workspaceDir: dir, workspaceOnly: true });
    const out = await invokeTool({
      tool,
      args: {
        input: patch(
          "*** Add File: b.txt",
          "+new",
          "*** Update File: a.txt",
          "@@",
          "-beta",
          "+gamma",
        ),
      },
    });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("cannot find these lines in a.txt");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
  });

  it("refuses paths outside the workspace when workspace-only", async () => {
    const dir = workspace();
    const tool = createApplyPatchTool({ workspaceDir: dir, workspaceOnly: true });
    const out = await invokeTool({
      tool,
      args: { input: patch("*** Add File: ../evil.txt", "+x") },
    });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("outside the workspace");
  });

  it("reports a missing file to update or delete", async () => {
    const dir = workspace();
    const tool = createApplyPatchTool({ workspaceDir: dir, workspaceOnly: false });
    const out = await invokeTool({ tool, args: { input: patch("*** Delete File: nope.txt") } });
    expect(text(out)).toBe("apply_patch: file not found: nope.txt");
  });
});
