import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createEditTool } from "./edit.js";
import { invokeTool } from "./invoke.js";
import { resolveToolPath } from "./paths.js";
import { createReadTool } from "./read.js";
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from "./types.js";
import { createWriteTool } from "./write.js";

function workspace(): string {
  return makeTempDir("pincer-tools-fs-");
}

function tools(dir: string, opts: { workspaceOnly?: boolean; limits?: Partial<ToolLimits> } = {}) {
  const ctx = { workspaceDir: dir, workspaceOnly: opts.workspaceOnly ?? false };
  const limits = { ...DEFAULT_TOOL_LIMITS, ...opts.limits };
  return {
    read: createReadTool({ ...ctx, limits }),
    write: createWriteTool(ctx),
    edit: createEditTool(ctx),
  };
}

function text(outcome: { content: Array<{ type: string; text?: string }> }): string {
  return outcome.content.map((block) => block.text ?? `[${block.type}]`).join("\n");
}

const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

describe("read", () => {
  it("reads a relative path inside the workspace", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "notes.md"), "one\ntwo\nthree\n");
    const out = await invokeTool({ tool: tools(dir).read, args: { path: "notes.md" } });
    expect(out.isError).toBe(false);
    expect(text(out)).toBe("one\ntwo\nthree");
    expect(out.details).toMatchObject({ kind: "text", startLine: 1, endLine: 3, totalLines: 3 });
  });

  it("returns a line window with a continuation hint", async () => {
    const dir = workspace();
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(dir, "f.txt"), lines.join("\n"));
    const out = await invokeTool({
      tool: tools(dir).read,
      args: { path: "f.txt", offset: 3, limit: 2 },
    });
    expect(text(out)).toBe(
      "line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]",
    );
  });

  it("caps the output in characters at a line boundary", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "f.txt"), Array.from({ length: 100 }, () => "x".repeat(9)).join("\n"));
    const out = await invokeTool({
      tool: tools(dir, { limits: { readMaxChars: 45 } }).read,
      args: { path: "f.txt" },
    });
    expect(text(out)).toContain(
      "[Showing lines 1-4 of 100 (output capped at 45 characters). Use offset=5",
    );
  });

  it("reports a missing file, a directory, an offset past the end and a binary file as errors", async () => {
    const dir = workspace();
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "short.txt"), "a\nb\n");
    writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    const { read } = tools(dir);
    const missing = await invokeTool({ tool: read, args: { path: "nope.txt" } });
    expect(missing).toMatchObject({ isError: true });
    expect(text(missing)).toBe("File not found: nope.txt");
    expect(text(await invokeTool({ tool: read, args: { path: "sub" } }))).toContain(
      "is a directory",
    );
    expect(text(await invokeTool({ tool: read, args: { path: "short.txt", offset: 9 } }))).toBe(
      "offset 9 is past the end of short.txt (2 lines).",
    );
    expect(text(await invokeTool({ tool: read, args: { path: "blob.bin" } }))).toContain(
      "binary file",
    );
  });

  it("refuses files over the size cap", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "big.log"), "y".repeat(2048));
    const out = await invokeTool({
      tool: tools(dir, { limits: { readMaxFileBytes: 1024 } }).read,
      args: { path: "big.log" },
    });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("over the read limit of 1024 bytes");
  });

  it("returns images as image content", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "dot.png"), PNG_1PX);
    const out = await invokeTool({ tool: tools(dir).read, args: { path: "dot.png" } });
    expect(out.isError).toBe(false);
    expect(out.content[1]).toEqual({
      type: "image",
      mimeType: "image/png",
      data: PNG_1PX.toString("base64"),
    });
  });

  it("accepts absolute paths outside the workspace when not workspace-only", async () => {
    const dir = workspace();
    const other = workspace();
    writeFileSync(join(other, "x.txt"), "outside");
    const out = await invokeTool({
      tool: tools(dir).read,
      args: { file_path: join(other, "x.txt") },
    });
    expect(text(out)).toBe("outside");
  });
});

describe("write", () => {
  it("creates parent directories and reports the size", async () => {
    const dir = workspace();
    const out = await invokeTool({
      tool: tools(dir).write,
      args: { path: "memory/2026-01-02.md", content: "héllo\n" },
    });
    expect(text(out)).toBe("Wrote 7 bytes to memory/2026-01-02.md.");
    expect(readFileSync(join(dir, "memory", "2026-01-02.md"), "utf8")).toBe("héllo\n");
  });

  it("fails cleanly when the path is a directory", async () => {
    const dir = workspace();
    mkdirSync(join(dir, "d"));
    const out = await invokeTool({ tool: tools(dir).write, args: { path: "d", content: "x" } });
    expect(out).toMatchObject({ isError: true });
    expect(text(out)).toBe("d is a directory.");
  });
});

describe("edit", () => {
  it("replaces one unique occurrence, literally", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "a.ts"), "const a = 1;\nconst b = 2;\n");
    const out = await invokeTool({
      tool: tools(dir).edit,
      args: { path: "a.ts", oldText: "const b = 2;", newText: "const b = '$&';" },
    });
    expect(text(out)).toBe("Edited a.ts: replaced 1 occurrence at line 2.");
    expect(readFileSync(join(dir, "a.ts"), "utf8")).toBe("const a = 1;\nconst b = '$&';\n");
  });

  it("accepts old_string/new_string from other tool dialects", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "a.txt"), "alpha beta");
    const out = await invokeTool({
      tool: tools(dir).edit,
      args: { file_path: "a.txt", old_string: "beta", new_string: "gamma" },
    });
    expect(out.isError).toBe(false);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha gamma");
  });

  it("explains not-found, not-unique, missing file and no-op edits", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "a.txt"), "x = 1\nx = 1\n");
    const { edit } = tools(dir);
    const call = (args: object) => invokeTool({ tool: edit, args: { path: "a.txt", ...args } });
    const notFound = await call({ oldText: "y = 2", newText: "z" });
    expect(notFound.isError).toBe(true);
    expect(text(notFound)).toContain("Could not find oldText in a.txt");
    const twice = await call({ oldText: "x = 1", newText: "x = 2" });
    expect(twice.isError).toBe(true);
    expect(text(twice)).toContain("oldText occurs 2 times in a.txt");
    expect(text(await call({ oldText: "x", newText: "x" }))).toContain("identical");
    const missing = await invokeTool({
      tool: edit,
      args: { path: "gone.txt", oldText: "a", newText: "b" },
    });
    expect(text(missing)).toBe("File not found: gone.txt");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("x = 1\nx = 1\n");
  });
});

describe("workspaceOnly", () => {
  it("refuses paths that escape the workspace through .., absolute paths or symlinks", async () => {
    const dir = workspace();
    const outside = workspace();
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(outside, join(dir, "link"));
    const { read, write } = tools(dir, { workspaceOnly: true });
    for (const path of [
      "../x.txt",
      join(outside, "secret.txt"),
      "link/secret.txt",
      "/etc/passwd",
    ]) {
      const out = await invokeTool({ tool: read, args: { path } });
      expect(out.isError, path).toBe(true);
      expect(text(out), path).toContain("is outside the workspace");
    }
    const escaped = await invokeTool({ tool: write, args: { path: "link/new.txt", content: "x" } });
    expect(escaped.isError).toBe(true);
  });

  it("still allows nested and not-yet-existing paths inside the workspace", async () => {
    const dir = workspace();
    const { write, read } = tools(dir, { workspaceOnly: true });
    expect(
      (await invokeTool({ tool: write, args: { path: "a/b/../c.txt", content: "ok" } })).isError,
    ).toBe(false);
    expect(text(await invokeTool({ tool: read, args: { path: join(dir, "a", "c.txt") } }))).toBe(
      "ok",
    );
  });

  it("resolves relative paths against the workspace, not the process cwd", async () => {
    const dir = workspace();
    const path = await resolveToolPath({ workspaceDir: dir, workspaceOnly: false }, "sub/file.txt");
    expect(path).toBe(join(dir, "sub", "file.txt"));
    await expect(
      resolveToolPath({ workspaceDir: dir, workspaceOnly: false }, "  "),
    ).rejects.toThrow("non-empty `path`");
  });
});
