// `apply_patch`: apply a `*** Begin Patch` patch (add, delete, update, move). Every hunk is located before
// anything is written, so a patch that does not apply changes nothing. Restricted to the workspace unless
// `tools.exec.applyPatch.workspaceOnly` is false (OpenClaw's default is workspace-only).
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { Type } from "typebox";
import { type PatchChunk, type PatchOperation, parsePatch } from "./apply-patch-parse.js";
import { displayPath, resolveWritablePath, type ToolPathContext } from "./paths.js";
import { errnoCode, ToolError, textResult, throwIfAborted } from "./types.js";
import { fsWriteError } from "./write.js";

const ApplyPatchParams = Type.Object({
  input: Type.String({
    description:
      "The patch: '*** Begin Patch', then '*** Add File: P' (+lines), '*** Delete File: P' or " +
      "'*** Update File: P' (optional '*** Move to: Q', then '@@' hunks of ' ', '-', '+' lines), then '*** End Patch'.",
  }),
});

/** One file the patch changed: A(dded), M(odified), D(eleted). */
export interface PatchedFile {
  change: "A" | "M" | "D";
  path: string;
}

type Normalizer = (line: string) => string;
const PASSES: Normalizer[] = [(l) => l, (l) => l.trimEnd(), (l) => l.trim()];

interface SeekParams {
  lines: string[];
  pattern: string[];
  from: number;
  endOfFile: boolean;
}

/** Index where `pattern` occurs at or after `from` (exact, then ignoring trailing, then all whitespace). */
function seek({ lines, pattern, from, endOfFile }: SeekParams): number {
  if (pattern.length === 0) return from;
  for (const norm of PASSES) {
    const want = pattern.map(norm);
    const matches = (at: number) => want.every((line, k) => norm(lines[at + k]) === line);
    const last = lines.length - pattern.length;
    if (endOfFile && last >= from && matches(last)) return last;
    for (let at = from; at <= last; at++) if (matches(at)) return at;
  }
  return -1;
}

/** Inputs of {@link applyChunks}. */
export interface ApplyChunksParams {
  original: string;
  chunks: PatchChunk[];
  /** The file as named in error messages. */
  shown: string;
}

/** Where one hunk applies: the line index, the lines it replaces and their replacement. */
function locate({ lines, chunk, from }: { lines: string[]; chunk: PatchChunk; from: number }) {
  let old = chunk.oldLines;
  let insert = chunk.newLines;
  if (old.length === 0) {
    return { at: chunk.anchor === undefined ? lines.length : from, old, insert };
  }
  let at = seek({ lines, pattern: old, from, endOfFile: chunk.endOfFile });
  if (at === -1 && old[old.length - 1] === "") {
    old = old.slice(0, -1);
    if (insert[insert.length - 1] === "") insert = insert.slice(0, -1);
    at = seek({ lines, pattern: old, from, endOfFile: chunk.endOfFile });
  }
  return { at, old, insert };
}

/** The new content of a file after the hunks; throws a {@link ToolError} when a hunk cannot be located. */
export function applyChunks({ original, chunks, shown }: ApplyChunksParams): string {
  const lines = original.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const edits: Array<{ at: number; remove: number; insert: string[] }> = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.anchor !== undefined) {
      const at = seek({ lines, pattern: [chunk.anchor], from: cursor, endOfFile: false });
      if (at === -1)
        throw new ToolError(`apply_patch: cannot find "@@ ${chunk.anchor}" in ${shown}.`);
      cursor = at + 1;
    }
    const { at, old, insert } = locate({ lines, chunk, from: cursor });
    if (at === -1) {
      throw new ToolError(
        `apply_patch: cannot find these lines in ${shown}:\n${chunk.oldLines.join("\n")}`,
      );
    }
    edits.push({ at, remove: old.length, insert });
    cursor = at + old.length;
  }
  for (const edit of edits.reverse()) lines.splice(edit.at, edit.remove, ...edit.insert);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

type PlannedWrite =
  | { kind: "write"; path: string; content: string; change: "A" | "M"; removeAfter?: string }
  | { kind: "delete"; path: string };

async function readForPatch(path: string, shown: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if (errnoCode(err) === "ENOENT") throw new ToolError(`apply_patch: file not found: ${shown}`);
    throw err;
  }
}

async function plan(ctx: ToolPathContext, ops: PatchOperation[]): Promise<PlannedWrite[]> {
  const planned: PlannedWrite[] = [];
  for (const op of ops) {
    const path = await resolveWritablePath(ctx, op.path);
    const shown = displayPath(ctx, path);
    if (op.kind === "add") {
      planned.push({ kind: "write", path, content: op.content, change: "A" });
    } else if (op.kind === "delete") {
      await readForPatch(path, shown);
      planned.push({ kind: "delete", path });
    } else {
      const original = await readForPatch(path, shown);
      const content = applyChunks({ original, chunks: op.chunks, shown });
      const target = op.moveTo ? await resolveWritablePath(ctx, op.moveTo) : path;
      planned.push({
        kind: "write",
        path: target,
        content,
        change: "M",
        ...(target !== path ? { removeAfter: path } : {}),
      });
    }
  }
  return planned;
}

async function perform(ctx: ToolPathContext, step: PlannedWrite): Promise<PatchedFile> {
  const shown = displayPath(ctx, step.path);
  try {
    if (step.kind === "delete") {
      await unlink(step.path);
      return { change: "D", path: shown };
    }
    await mkdir(dirname(step.path), { recursive: true });
    await writeFile(step.path, step.content, "utf8");
    if (step.removeAfter) await unlink(step.removeAfter);
    return { change: step.change, path: shown };
  } catch (err) {
    throw fsWriteError(err, shown);
  }
}

/** Creates the `apply_patch` tool (offered only when `tools.exec.applyPatch` enables it). */
export function createApplyPatchTool(
  ctx: ToolPathContext,
): AgentTool<typeof ApplyPatchParams, { files: PatchedFile[] }> {
  return {
    name: "apply_patch",
    label: "Apply patch",
    description:
      "Apply a patch to one or more files (add, delete, update, move) in the '*** Begin Patch' format. " +
      "Hunks use '@@' optionally followed by a line to anchor on, then ' ' context, '-' removed and '+' added " +
      "lines. Nothing is written unless every hunk applies.",
    parameters: ApplyPatchParams,
    prepareArguments: (raw) =>
      typeof raw === "string" ? { input: raw } : (raw as { input: string }),
    async execute(_id, args, signal) {
      const ops = parsePatch(args.input);
      const steps = await plan(ctx, ops);
      throwIfAborted(signal, "apply_patch");
      const files: PatchedFile[] = [];
      for (const step of steps) files.push(await perform(ctx, step));
      const list = files.map((file) => `${file.change} ${file.path}`).join("\n");
      return textResult(`Success. Updated the following files:\n${list}`, { files });
    },
  };
}
