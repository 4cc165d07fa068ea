// Serving the built WebChat over plain HTTP: content types, the CSP and other security headers,
// ETag revalidation, 404s, and no way out of the UI folder (raw request paths, not normalized).
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { silentLogger } from "../../lib/logger.js";
import { findPackageRoot } from "../../lib/package-root.js";
import { handleHttp } from "./routes.js";
import { defaultUiDir, resolveUiPath, UI_CONTENT_SECURITY_POLICY } from "./ui-files.js";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends `path` exactly as written (no URL normalization, unlike fetch). */
function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: options.headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

function listen(uiDir: string | undefined): Promise<{ server: Server; port: number }> {
  const logger = silentLogger;
  const server = createServer((req, res) =>
    handleHttp(
      { version: "test", health: () => ({ ok: true }), logger, uiDir, uiEnabled: () => true },
      req,
      res,
    ),
  );
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    ),
  );
}

describe("WebChat file serving", () => {
  const root = makeTempDir("pincer-ui-");
  const uiDir = join(root, "ui");
  let server: Server;
  let port: number;

  beforeAll(async () => {
    mkdirSync(join(uiDir, "assets", "nested"), { recursive: true });
    writeFileSync(join(uiDir, "index.html"), "<!doctype html><title>t</title>");
    writeFileSync(join(uiDir, "app.js"), "console.log(1);");
    writeFileSync(join(uiDir, "app.css"), "body{}");
    writeFileSync(join(uiDir, "assets", "nested", "logo.svg"), "<svg/>");
    writeFileSync(join(uiDir, "notes.md"), "not a served type");
    writeFileSync(join(uiDir, ".hidden.js"), "secret()");
    writeFileSync(join(root, "secret.js"), "outside the ui folder");
    ({ server, port } = await listen(uiDir));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves / as the page and each file with its content type and security headers", async () => {
    const cases = [
      ["/", "text/html; charset=utf-8", "<!doctype html>"],
      ["/index.html", "text/html; charset=utf-8", "<!doctype html>"],
      ["/app.js", "text/javascript; charset=utf-8", "console.log(1);"],
      ["/app.css?v=2", "text/css; charset=utf-8", "body{}"],
      ["/assets/nested/logo.svg", "image/svg+xml", "<svg/>"],
    ] as const;
    for (const [path, type, start] of cases) {
      const res = await rawRequest(port, path);
      expect(res.status, path).toBe(200);
      expect(res.headers["content-type"], path).toBe(type);
      expect(res.body.startsWith(start), path).toBe(true);
      expect(res.headers["content-security-policy"]).toBe(UI_CONTENT_SECURITY_POLICY);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    }
  });

  it("has a CSP that forbids inline script and style and limits sockets to this origin", () => {
    expect(UI_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(UI_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(UI_CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(UI_CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");
    expect(UI_CONTENT_SECURITY_POLICY).not.toContain("unsafe-eval");
  });

  it("answers 304 to a matching If-None-Match and HEAD without a body", async () => {
    const first = await rawRequest(port, "/app.js");
    const etag = String(first.headers.etag);
    const again = await rawRequest(port, "/app.js", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    const stale = await rawRequest(port, "/app.js", { headers: { "if-none-match": 'W/"0-0"' } });
    expect(stale.status).toBe(200);
    const head = await rawRequest(port, "/app.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String("console.log(1);".length));
    expect(head.body).toBe("");
    expect((await rawRequest(port, "/app.js", { method: "POST" })).status).toBe(405);
  });

  it("answers 404 for unknown files, directories, dot files and unserved types", async () => {
    for (const path of ["/nope.js", "/assets", "/assets/", "/.hidden.js", "/notes.md", "/x"]) {
      const res = await rawRequest(port, path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-security-policy"]).toBe(UI_CONTENT_SECURITY_POLICY);
    }
  });

  it("never serves a file outside the UI folder", async () => {
    const attempts = [
      "/../secret.js",
      "/assets/../../secret.js",
      "/%2e%2e/secret.js",
      "/%2E%2E%2Fsecret.js",
      "/assets%2F..%2F..%2Fsecret.js",
      "/..%5csecret.js",
      "/%2e%2e%5csecret.js",
      `/${encodeURIComponent(join(root, "secret.js"))}`,
      "//etc/passwd",
      "/app.js%00.html",
    ];
    for (const path of attempts) {
      const res = await rawRequest(port, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain("outside the ui folder");
    }
    const malformed = await rawRequest(port, "/%zz");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toContain("malformed percent-encoding");
    expect(resolveUiPath(uiDir, "/../secret.js")).toBeUndefined();
    expect(resolveUiPath(uiDir, "/assets%2Fnested%2Flogo.svg")).toBeUndefined();
    expect(resolveUiPath(uiDir, "/assets/nested/logo.svg")).toBe(
      join(uiDir, "assets", "nested", "logo.svg"),
    );
  });

  it("keeps /health and says how to build when there is no UI folder", async () => {
    const bare = await listen(undefined);
    try {
      const page = await rawRequest(bare.port, "/");
      expect(page.status).toBe(404);
      expect(page.body).toContain("npm run build");
      const health = await rawRequest(bare.port, "/health");
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ ok: true });
    } finally {
      await new Promise<void>((resolve) => bare.server.close(() => resolve()));
    }
  });

  it("finds the package's dist/ui from a module inside the package", () => {
    const pkg = findPackageRoot(import.meta.url);
    expect(pkg).toBeDefined();
    expect(defaultUiDir(import.meta.url)).toBe(join(pkg as string, "dist", "ui"));
    expect(defaultUiDir("/")).toBeUndefined();
  });
});
