// `read`: a window of lines from a text file (offset/limit, capped in lines and characters), or an image
// file as image content. Binary and oversized files are refused with a hint.
import { open, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "typebox";
import { renameArgs } from "./args.js";
import { displayPath, resolveToolPath, type ToolPathContext } from "./paths.js";
import { errnoCode, ToolError, type ToolLimits, textResult, throwIfAborted } from "./types.js";

const ReadParams = Type.Object({
  path: Type.String({ description: "File path, relative to the workspace or absolute." }),
  offset: Type.Optional(Type.Integer({ minimum: 1, description: "First line to read (1-based)." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Maximum number of lines to read." }),
  ),
});
type ReadArgs = Static<typeof ReadParams>;

/** Structured details of a `read` result. */
export interface ReadDetails {
  path: string;
  kind: "text" | "image";
  startLine?: number;
  endLine?: number;
  totalLines?: number;
  truncated?: boolean;
  bytes: number;
}

/** What `read` needs. */
export interface ReadToolContext extends ToolPathContext {
  limits: ToolLimits;
}

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

async function statFile(path: string, shown: string) {
  try {
    const info = await stat(path);
    if (info.isDirectory())
      throw new ToolError(`${shown} is a directory; use exec (ls) to list it.`);
    return info;
  } catch (err) {
    if (errnoCode(err) === "ENOENT") throw new ToolError(`File not found: ${shown}`);
    if (errnoCode(err) === "EACCES") throw new ToolError(`Permission denied: ${shown}`);
    throw err;
  }
}

async function readBytes(path: string): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}

/** Cuts lines `[start, start+limit)` further down to `maxChars`, always at a line boundary past the first line. */
function windowLines(p: { lines: string[]; start: number; limit: number; maxChars: number }) {
  const { lines, start, limit, maxChars } = p;
  const picked: string[] = [];
  let chars = 0;
  let cut = false;
  for (let i = start - 1; i < lines.length && picked.length < limit; i++) {
    const line = lines[i];
    if (chars + line.length + 1 > maxChars) {
      if (picked.length === 0)
        picked.push(`${line.slice(0, maxChars)} [line cut at ${maxChars} chars]`);
      cut = true;
      break;
    }
    picked.push(line);
    chars += line.length + 1;
  }
  return { picked, cut };
}

function readText(ctx: ReadToolContext, file: { buffer: Buffer; args: ReadArgs; path: string }) {
  const { buffer, args, path } = file;
  const shown = displayPath(ctx, path);
  const text = buffer.toString("utf8");
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const total = lines.length;
  const details: ReadDetails = { path, kind: "text", totalLines: total, bytes: buffer.length };
  if (total === 0) return textResult(`(${shown} is empty)`, details);
  const start = args.offset ?? 1;
  if (start > total) {
    throw new ToolError(`offset ${start} is past the end of ${shown} (${total} lines).`);
  }
  const limit = args.limit ?? ctx.limits.readMaxLines;
  const { picked, cut } = windowLines({ lines, start, limit, maxChars: ctx.limits.readMaxChars });
  const end = start + picked.length - 1;
  let body = picked.join("\n");
  if (end < total) {
    const why = cut ? ` (output capped at ${ctx.limits.readMaxChars} characters)` : "";
    body += `\n\n[Showing lines ${start}-${end} of ${total}${why}. Use offset=${end + 1} to continue.]`;
  }
  return textResult(body, { ...details, startLine: start, endLine: end, truncated: end < total });
}

/** Creates the `read` tool. */
export function createReadTool(ctx: ReadToolContext): AgentTool<typeof ReadParams, ReadDetails> {
  return {
    name: "read",
    label: "Read",
    description:
      "Read a text file (optionally a window: offset = first line, limit = line count) or an image " +
      `(png, jpeg, gif, webp). Output is capped at ${ctx.limits.readMaxLines} lines / ` +
      `${ctx.limits.readMaxChars} characters; use offset to continue. Relative paths resolve in the workspace.`,
    parameters: ReadParams,
    prepareArguments: renameArgs<ReadArgs>({ file_path: "path", filePath: "path" }),
    async execute(_id, args, signal) {
      const path = await resolveToolPath(ctx, args.path);
      const shown = displayPath(ctx, path);
      const info = await statFile(path, shown);
      const mimeType = IMAGE_TYPES[extname(path).toLowerCase()];
      const cap = mimeType ? ctx.limits.imageMaxBytes : ctx.limits.readMaxFileBytes;
      if (info.size > cap) {
        throw new ToolError(
          `${shown} is ${info.size} bytes, over the ${mimeType ? "image" : "read"} limit of ${cap} bytes.` +
            (mimeType ? "" : " Read part of it with exec (e.g. `sed -n '1,200p' FILE` or `grep`)."),
        );
      }
      throwIfAborted(signal, "read");
      const buffer = await readBytes(path);
      if (mimeType) {
        const details: ReadDetails = { path, kind: "image", bytes: buffer.length };
        return {
          content: [
            { type: "text", text: `Read image ${shown} (${mimeType}, ${buffer.length} bytes).` },
            { type: "image", data: buffer.toString("base64"), mimeType },
          ],
          details,
        };
      }
      if (looksBinary(buffer)) {
        throw new ToolError(
          `${shown} looks like a binary file (${buffer.length} bytes); read returns text and ` +
            "images (png, jpeg, gif, webp) only.",
        );
      }
      return readText(ctx, { buffer, args, path });
    },
  };
}
