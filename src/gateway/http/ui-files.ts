// Serves the built Control UI (the package's dist/ui/) over the gateway's HTTP port: a fixed set of
// content types, a strict Content-Security-Policy (no inline script or style, sockets to this origin
// only), ETag revalidation, and no way out of the folder: names are checked before any disk access,
// then the file's real path (symlinks resolved) must lie inside the UI folder's real path.
import { constants, promises as fsp, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { findPackageRoot } from "../../lib/package-root.js";

/** Content types of the files the UI ships; any other extension is not served. */
export const UI_CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

/** The policy every UI response carries: scripts, styles and sockets from this origin only. */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers sent with every UI response (files, 304s and 404s alike). */
export const UI_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": UI_CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** The package's built UI folder (`<package>/dist/ui`), whether running from src/, dist/ or dist/bin/. */
export function defaultUiDir(fromUrl: string = import.meta.url): string | undefined {
  const root = findPackageRoot(fromUrl);
  return root === undefined ? undefined : join(root, "dist", "ui");
}

const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The file a URL path names inside `uiDir` (`/` is index.html), or undefined for anything that is
 * not a plain relative name with a served extension: `..`, dot files, encoded slashes, NUL bytes.
 */
export function resolveUiPath(uiDir: string, urlPath: string): string | undefined {
  // Split before decoding, so an encoded slash or backslash stays inside one (refused) segment.
  const raw = urlPath === "/" ? ["index.html"] : urlPath.replace(/^\//, "").split("/");
  let segments: string[];
  try {
    segments = raw.map((segment) => decodeURIComponent(segment));
  } catch {
    // Malformed percent-encoding names no file.
    return undefined;
  }
  if (!segments.every((segment) => SAFE_SEGMENT.test(segment))) return undefined;
  const name = segments[segments.length - 1] ?? "";
  if (UI_CONTENT_TYPES[extname(name).toLowerCase()] === undefined) return undefined;
  const root = resolve(uiDir);
  const file = resolve(root, ...segments);
  if (file === root || !isInsideDir(root, file)) return undefined;
  return file;
}

function entityTag(stats: Stats): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

/** Errors that mean "no such servable file" (missing, not a dir, too long, a loop, not readable). */
const NOT_FOUND_CODES = new Set(["ENOENT", "ENOTDIR", "ENAMETOOLONG", "ELOOP", "EACCES", "EISDIR"]);

function isNotFound(err: unknown): boolean {
  return NOT_FOUND_CODES.has((err as NodeJS.ErrnoException).code ?? "");
}

/** True when `child` is `root` itself or below it (both already real paths). */
export function isInsideDir(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (!isAbsolute(rel) && rel.split(sep)[0] !== "..");
}

/** An open UI file whose real path is inside the UI folder's real path. */
interface OpenedUiFile {
  handle: FileHandle;
  stats: Stats;
}

/**
 * Opens `file` only if its real path (every symlink resolved) is a regular file inside the real
 * UI folder: a symlink pointing out of the folder is "not found". The real path is opened with
 * O_NOFOLLOW (a symlink swapped in meanwhile fails) and must be a regular file through the handle.
 */
export async function openUiFile(uiDir: string, file: string): Promise<OpenedUiFile | undefined> {
  let handle: FileHandle | undefined;
  try {
    const root = await fsp.realpath(uiDir);
    const real = await fsp.realpath(file);
    if (!isInsideDir(root, real) || real === root) return undefined;
    // O_NONBLOCK: a FIFO under a served name is refused below instead of hanging the open.
    const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
    handle = await fsp.open(real, flags);
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return undefined;
    }
    return { handle, stats };
  } catch (err) {
    await handle?.close();
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function notFound(res: ServerResponse, text: string): void {
  res.writeHead(404, { ...UI_SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" });
  res.end(`${text}\n`);
}

/** Inputs of {@link serveUiFile}. */
export interface ServeUiParams {
  /** Built UI folder; undefined when the package has none (answers 404 with a hint). */
  uiDir: string | undefined;
  /** False when `gateway.controlUi.enabled` is false: every UI path answers 404. */
  enabled?: boolean;
  /** URL path without the query string. */
  path: string;
  req: IncomingMessage;
  res: ServerResponse;
}

/** Answers a GET/HEAD for a UI file: 200 with the file, 304 when the ETag matches, else 404. */
export async function serveUiFile(params: ServeUiParams): Promise<void> {
  const { uiDir, path, req, res } = params;
  if (params.enabled === false) {
    notFound(res, "the Control UI is turned off (gateway.controlUi.enabled is false)");
    return;
  }
  const file = uiDir === undefined ? undefined : resolveUiPath(uiDir, path);
  const opened = file === undefined ? undefined : await openUiFile(uiDir as string, file);
  if (file === undefined || opened === undefined) {
    const hint =
      path === "/" ? "the Control UI is not built here (run `npm run build`)" : "not found";
    notFound(res, hint);
    return;
  }
  const { handle, stats } = opened;
  try {
    const etag = entityTag(stats);
    const headers = {
      ...UI_SECURITY_HEADERS,
      "content-type": UI_CONTENT_TYPES[extname(file).toLowerCase()],
      "cache-control": "no-cache",
      etag,
      "last-modified": stats.mtime.toUTCString(),
    };
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const body = req.method === "HEAD" ? undefined : await handle.readFile();
    res.writeHead(200, { ...headers, "content-length": String(body?.length ?? stats.size) });
    res.end(body);
  } finally {
    await handle.close();
  }
}
