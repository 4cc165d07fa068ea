// `write`: create or overwrite a file with the given content, creating parent directories.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "typebox";
import { renameArgs } from "./args.js";
import { displayPath, resolveWritablePath, type ToolPathContext } from "./paths.js";
import { errnoCode, ToolError, textResult, throwIfAborted } from "./types.js";

const WriteParams = Type.Object({
  path: Type.String({ description: "File path, relative to the workspace or absolute." }),
  content: Type.String({ description: "The full new content of the file." }),
});

/** Structured details of a `write` result. */
export interface WriteDetails {
  path: string;
  bytes: number;
}

/** Turns fs errors of a write into messages for the model; anything else is rethrown. */
export function fsWriteError(err: unknown, shown: string): Error {
  const code = errnoCode(err);
  if (code === "EISDIR") return new ToolError(`${shown} is a directory.`);
  if (code === "EACCES" || code === "EPERM") return new ToolError(`Permission denied: ${shown}`);
  if (code === "ENOTDIR") return new ToolError(`A parent of ${shown} is a file, not a directory.`);
  if (code === "EROFS") return new ToolError(`${shown} is on a read-only file system.`);
  return err instanceof Error ? err : new ToolError(String(err));
}

/** Creates the `write` tool. */
export function createWriteTool(ctx: ToolPathContext): AgentTool<typeof WriteParams, WriteDetails> {
  return {
    name: "write",
    label: "Write",
    description:
      "Write a file (created or overwritten), creating parent directories. Relative paths resolve " +
      "in the workspace. Prefer edit for small changes to an existing file.",
    parameters: WriteParams,
    prepareArguments: renameArgs<Static<typeof WriteParams>>({
      file_path: "path",
      filePath: "path",
    }),
    async execute(_id, args, signal) {
      const path = await resolveWritablePath(ctx, args.path);
      const shown = displayPath(ctx, path);
      throwIfAborted(signal, "write");
      const bytes = Buffer.byteLength(args.content, "utf8");
      try {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, args.content, "utf8");
      } catch (err) {
        throw fsWriteError(err, shown);
      }
      return textResult(`Wrote ${bytes} bytes to ${shown}.`, { path, bytes });
    },
  };
}
