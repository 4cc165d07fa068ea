// `edit`: replace one exact, unique occurrence of `oldText` with `newText` in a file.
import { readFile, writeFile } from "node:fs/promises";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "typebox";
import { renameArgs } from "./args.js";
import { displayPath, resolveWritablePath, type ToolPathContext } from "./paths.js";
import { errnoCode, ToolError, textResult, throwIfAborted } from "./types.js";
import { fsWriteError } from "./write.js";

const EditParams = Type.Object({
  path: Type.String({ description: "File path, relative to the workspace or absolute." }),
  oldText: Type.String({
    description: "Exact text to replace, including whitespace; must occur exactly once.",
  }),
  newText: Type.String({ description: "Replacement text." }),
});

/** Structured details of an `edit` result. */
export interface EditDetails {
  path: string;
  /** 1-based line where the replaced text started. */
  line: number;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

async function readExisting(path: string, shown: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if (errnoCode(err) === "ENOENT") throw new ToolError(`File not found: ${shown}`);
    if (errnoCode(err) === "EISDIR") throw new ToolError(`${shown} is a directory.`);
    throw err;
  }
}

/** Creates the `edit` tool. */
export function createEditTool(ctx: ToolPathContext): AgentTool<typeof EditParams, EditDetails> {
  return {
    name: "edit",
    label: "Edit",
    description:
      "Edit a file by replacing an exact text snippet (oldText, which must occur exactly once; include " +
      "enough surrounding lines to make it unique) with newText.",
    parameters: EditParams,
    prepareArguments: renameArgs<Static<typeof EditParams>>({
      file_path: "path",
      filePath: "path",
      old_string: "oldText",
      new_string: "newText",
    }),
    async execute(_id, args, signal) {
      const path = await resolveWritablePath(ctx, args.path);
      const shown = displayPath(ctx, path);
      if (args.oldText === "")
        throw new ToolError("oldText must not be empty; use write to create a file.");
      if (args.oldText === args.newText)
        throw new ToolError("oldText and newText are identical; nothing to change.");
      const content = await readExisting(path, shown);
      const count = countOccurrences(content, args.oldText);
      if (count === 0) {
        throw new ToolError(
          `Could not find oldText in ${shown}. It must match exactly, including whitespace and line breaks; read the file first.`,
        );
      }
      if (count > 1) {
        throw new ToolError(
          `oldText occurs ${count} times in ${shown}; include more surrounding context so it matches exactly once.`,
        );
      }
      throwIfAborted(signal, "edit");
      const at = content.indexOf(args.oldText);
      const next = content.slice(0, at) + args.newText + content.slice(at + args.oldText.length);
      try {
        await writeFile(path, next, "utf8");
      } catch (err) {
        throw fsWriteError(err, shown);
      }
      const line = content.slice(0, at).split("\n").length;
      return textResult(`Edited ${shown}: replaced 1 occurrence at line ${line}.`, { path, line });
    },
  };
}
