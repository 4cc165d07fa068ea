// Serves the built WebChat (the package's dist/ui/) over the gateway's HTTP port: a fixed set of
// content types, a strict Content-Security-Policy (no inline script or style, sockets to this origin
// only), ETag revalidation, and no way out of the folder (names are checked before any disk access).
import { promises as fsp, type Stats } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative, resolve, sep } from "node:path";
import { findPackageRoot } from "../lib/package-root.js";

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
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    // Malformed percent-encoding names no file.
    return undefined;
  }
  const name = decoded === "/" ? "index.html" : decoded.replace(/^\//, "");
  const segments = name.split("/");
  if (!segments.every((segment) => SAFE_SEGMENT.test(segment))) return undefined;
  if (UI_CONTENT_TYPES[extname(name).toLowerCase()] === undefined) return undefined;
  const root = resolve(uiDir);
  const file = resolve(root, ...segments);
  const rel = relative(root, file);
  if (rel === "" || rel.startsWith("..") || rel.split(sep).includes("..")) return undefined;
  return file;
}

function entityTag(stats: Stats): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

async function statFile(file: string): Promise<Stats | undefined> {
  try {
    const stats = await fsp.stat(file);
    return stats.isFile() ? stats : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if ((err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
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
  /** URL path without the query string. */
  path: string;
  req: IncomingMessage;
  res: ServerResponse;
}

/** Answers a GET/HEAD for a UI file: 200 with the file, 304 when the ETag matches, else 404. */
export async function serveUiFile(params: ServeUiParams): Promise<void> {
  const { uiDir, path, req, res } = params;
  const file = uiDir === undefined ? undefined : resolveUiPath(uiDir, path);
  const stats = file === undefined ? undefined : await statFile(file);
  if (file === undefined || stats === undefined) {
    const hint = path === "/" ? "WebChat is not built here (run `npm run build`)" : "not found";
    notFound(res, hint);
    return;
  }
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
  const body = req.method === "HEAD" ? undefined : await fsp.readFile(file);
  res.writeHead(200, { ...headers, "content-length": String(stats.size) });
  res.end(body);
}
