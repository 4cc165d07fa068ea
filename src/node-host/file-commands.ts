// `file.read` / `file.write` on the node (OpenClaw's names and shapes), confined to the node's roots
// (roots.ts) and capped in size: read `{path, encoding?}` → `{path, data, encoding, size}` (utf8 when
// the bytes are valid UTF-8 and no encoding was asked, else base64); write `{path, data, encoding?}`
// → `{path, size}`, atomically (temp + fsync + rename).
import { readFile, stat } from "node:fs/promises";
import { writeFileAtomicAsync } from "../lib/atomic-write.js";
import { type NodeCommandError, resolveInRoots } from "./roots.js";

/** Largest file read or written through the node (16 MiB: base64 of it fits one 25 MiB frame). */
export const NODE_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** A command's outcome on the node. */
export type NodeCommandOutcome =
  | { ok: true; payload: unknown }
  | { ok: false; error: NodeCommandError };

const invalid = (message: string): NodeCommandOutcome => ({
  ok: false,
  error: { code: "INVALID_REQUEST", message },
});

const tooLarge = (size: number): NodeCommandOutcome => ({
  ok: false,
  error: {
    code: "FILE_TOO_LARGE",
    message: `${size} bytes is over the ${NODE_FILE_MAX_BYTES} byte cap`,
  },
});

function encodingOf(value: unknown): "utf8" | "base64" | undefined | null {
  if (value === undefined) return undefined;
  return value === "utf8" || value === "base64" ? value : null;
}

/** `file.read`. */
export async function fileRead(
  roots: readonly string[],
  params: Record<string, unknown>,
): Promise<NodeCommandOutcome> {
  if (typeof params.path !== "string" || params.path === "") return invalid("file.read needs path");
  const encoding = encodingOf(params.encoding);
  if (encoding === null) return invalid('encoding must be "utf8" or "base64"');
  const where = await resolveInRoots({ roots, requested: params.path, access: "read" });
  if (!where.ok) return where;
  const info = await stat(where.path);
  if (!info.isFile()) return invalid(`${params.path} is not a file`);
  if (info.size > NODE_FILE_MAX_BYTES) return tooLarge(info.size);
  const bytes = await readFile(where.path);
  const text = bytes.toString("utf8");
  const asText =
    encoding === "utf8" || (encoding === undefined && Buffer.from(text, "utf8").equals(bytes));
  return {
    ok: true,
    payload: {
      path: where.path,
      data: asText ? text : bytes.toString("base64"),
      encoding: asText ? "utf8" : "base64",
      size: bytes.length,
    },
  };
}

/** `file.write`. */
export async function fileWrite(
  roots: readonly string[],
  params: Record<string, unknown>,
): Promise<NodeCommandOutcome> {
  if (typeof params.path !== "string" || params.path === "")
    return invalid("file.write needs path");
  if (typeof params.data !== "string") return invalid("file.write needs data (a string)");
  const encoding = encodingOf(params.encoding);
  if (encoding === null) return invalid('encoding must be "utf8" or "base64"');
  const bytes = Buffer.from(params.data, encoding ?? "utf8");
  if (bytes.length > NODE_FILE_MAX_BYTES) return tooLarge(bytes.length);
  const where = await resolveInRoots({ roots, requested: params.path, access: "write" });
  if (!where.ok) return where;
  await writeFileAtomicAsync(where.path, bytes);
  return { ok: true, payload: { path: where.path, size: bytes.length } };
}
