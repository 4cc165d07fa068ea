// Malformed HTTP against the real gateway over raw sockets: every request gets a status line
// (400, 405 + Allow, 414, 431), never a dropped socket or a 500; and the WebChat folder never
// serves a file outside itself, through symlinks or encodings.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";
import { type RawHttpAnswer, rawHttp } from "./helpers/raw-http.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const root = makeTempDir("pincer-http-");
const realUi = join(root, "real-ui");
const uiLink = join(root, "ui");
const outside = join(root, "outside");
let box: GatewaySandbox;
let port: number;

beforeAll(async () => {
  mkdirSync(join(realUi, "assets"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(realUi, "index.html"), "<!doctype html><title>ui</title>");
  writeFileSync(join(realUi, "app.js"), "console.log('inside');");
  writeFileSync(join(outside, "secret.js"), "outside the ui folder");
  writeFileSync(join(outside, "secret.json"), '{"outside":"the ui folder"}');
  // Escapes: a file symlink, a directory symlink, an absolute one, a chain, a loop, a dangling one.
  symlinkSync(join(outside, "secret.js"), join(realUi, "leak.js"));
  symlinkSync("../outside/secret.json", join(realUi, "assets", "leak.json"));
  symlinkSync(outside, join(realUi, "linked"));
  symlinkSync("/etc/hostname", join(realUi, "hostname.js"));
  symlinkSync("leak.js", join(realUi, "chain.js"));
  symlinkSync("loop-b.js", join(realUi, "loop-a.js"));
  symlinkSync("loop-a.js", join(realUi, "loop-b.js"));
  symlinkSync("missing.js", join(realUi, "dangling.js"));
  // Allowed: a symlink that stays inside, and the UI folder itself reached through a symlink.
  symlinkSync("app.js", join(realUi, "alias.js"));
  symlinkSync(realUi, uiLink);
  box = await createGatewaySandbox({ options: { uiDir: uiLink } });
  port = box.gw.port;
});
afterAll(async () => {
  await box.close();
  rmSync(root, { recursive: true, force: true });
});

const request = (line: string, headers = "Host: 127.0.0.1\r\n") => `${line}\r\n${headers}\r\n`;

function expectAnswered(answer: RawHttpAnswer, status: number, label: string): void {
  expect(answer.statusLine, `${label}: socket dropped without a response`).not.toBe("");
  expect(answer.status, `${label}: ${answer.statusLine} ${answer.body}`).toBe(status);
}

describe("malformed HTTP gets a status line, not a dropped socket", () => {
  it("answers 400 naming the problem for a malformed request line or header", async () => {
    const cases = [
      "hello world\r\n\r\n",
      request("G@T / HTTP/1.1"),
      request("GET / HTTP/9.9"),
      request("GET /a b HTTP/1.1"),
      request("GET /a\x01b HTTP/1.1"),
      request("GET abc HTTP/1.1"),
      "GET / HTTP/1.1\r\nHo st: x\r\n\r\n",
      "GET / HTTP/1.1\r\nHost\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
      "GET / HTTP/1.1\nHost: x\n\n",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ];
    for (const raw of cases) {
      const answer = await rawHttp(port, raw);
      expectAnswered(answer, 400, JSON.stringify(raw));
      expect(answer.body, JSON.stringify(raw)).toMatch(/^malformed request: \S/);
    }
  });

  it("answers 400 to a target that names no path, duplicate Host and a bare asterisk", async () => {
    const cases: Array<[string, RegExp]> = [
      [request("GET * HTTP/1.1"), /must be a path/],
      [request("GET / HTTP/1.1", "Host: a\r\nHost: b\r\n"), /more than one Host/],
    ];
    for (const [raw, text] of cases) {
      const answer = await rawHttp(port, raw);
      expectAnswered(answer, 400, JSON.stringify(raw));
      expect(answer.body).toMatch(text);
    }
    const absolute = await rawHttp(port, request(`GET http://127.0.0.1:${port}/health HTTP/1.1`));
    expectAnswered(absolute, 200, "absolute-form /health");
  });

  it("answers 400 to malformed percent-encoding in the path, wherever it is", async () => {
    for (const path of [
      "/%zz",
      "/%",
      "/health%",
      "/%E0%A4%A",
      "/%c0%af",
      "/assets/%ff.js",
      "/a%2",
    ]) {
      const answer = await rawHttp(port, request(`GET ${path} HTTP/1.1`));
      expectAnswered(answer, 400, path);
      expect(answer.body, path).toMatch(/malformed percent-encoding/);
    }
  });

  it("answers 405 with Allow to a method no path supports, CONNECT included", async () => {
    const cases = [
      "POST / HTTP/1.1",
      "PUT /health HTTP/1.1",
      "DELETE /app.js HTTP/1.1",
      "PATCH /nope HTTP/1.1",
      "OPTIONS / HTTP/1.1",
      "PROPFIND / HTTP/1.1",
      "CONNECT example.com:443 HTTP/1.1",
    ];
    for (const line of cases) {
      const answer = await rawHttp(port, request(line, "Host: 127.0.0.1\r\nContent-Length: 0\r\n"));
      expectAnswered(answer, 405, line);
      expect(answer.headers.allow, line).toBe("GET, HEAD");
    }
  });

  it("answers 414 to an over-long URL, however long", async () => {
    for (const length of [9_000, 15_000, 20_000, 100_000]) {
      const path = `/${"a".repeat(length)}.js`;
      const answer = await rawHttp(port, request(`GET ${path} HTTP/1.1`));
      expectAnswered(answer, 414, `url of ${length}`);
    }
    const query = await rawHttp(port, request(`GET /health?q=${"x".repeat(10_000)} HTTP/1.1`));
    expectAnswered(query, 414, "long query");
  });

  it("answers 431 to over-large headers, one big or many", async () => {
    const big = `Host: x\r\nCookie: a=${"b".repeat(20_000)}\r\n`;
    expectAnswered(await rawHttp(port, request("GET / HTTP/1.1", big)), 431, "one big header");
    const many = `Host: x\r\n${Array.from({ length: 900 }, (_, i) => `X-H${i}: ${"v".repeat(20)}`).join("\r\n")}\r\n`;
    expectAnswered(await rawHttp(port, request("GET / HTTP/1.1", many)), 431, "many headers");
  });

  it("answers a non-upgrade WebSocket request with 400 instead of the page", async () => {
    const answer = await rawHttp(
      port,
      request(
        "GET / HTTP/1.1",
        "Host: 127.0.0.1\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n",
      ),
    );
    expectAnswered(answer, 400, "upgrade without Connection");
    expect(answer.body).toMatch(/Connection: Upgrade/);
  });

  it("answers 404, not 500, to a file name the file system refuses", async () => {
    for (const path of [`/${"n".repeat(300)}.js`, `/assets/${"n".repeat(5000)}.js`]) {
      const answer = await rawHttp(port, request(`GET ${path} HTTP/1.1`));
      expectAnswered(answer, 404, path.slice(0, 20));
    }
  });
});

describe("the WebChat folder never serves a file outside itself", () => {
  it("serves files inside, through an inner symlink and a symlinked UI folder", async () => {
    for (const path of ["/", "/app.js", "/alias.js"]) {
      const answer = await rawHttp(port, request(`GET ${path} HTTP/1.1`));
      expectAnswered(answer, 200, path);
    }
    expect((await rawHttp(port, request("GET /alias.js HTTP/1.1"))).body).toContain("inside");
  });

  it("answers 404 to every symlink that leads out, and never sends the outside file", async () => {
    const paths = [
      "/leak.js",
      "/assets/leak.json",
      "/linked/secret.js",
      "/linked/secret.json",
      "/hostname.js",
      "/chain.js",
      "/loop-a.js",
      "/dangling.js",
    ];
    for (const path of paths) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await rawHttp(port, request(`${method} ${path} HTTP/1.1`));
        expectAnswered(answer, 404, `${method} ${path}`);
        expect(answer.body).not.toContain("outside");
      }
    }
  });

  it("answers 404 to a FIFO under a served name instead of hanging", async () => {
    execFileSync("mkfifo", [join(realUi, "pipe.js")]);
    expectAnswered(await rawHttp(port, request("GET /pipe.js HTTP/1.1")), 404, "fifo");
  });

  it("answers 404 to encoded traversal: %2e%2e, backslashes, NUL bytes, double encoding", async () => {
    const paths = [
      "/%2e%2e/outside/secret.js",
      "/%2E%2E%2Foutside%2Fsecret.js",
      "/%252e%252e/outside/secret.js",
      "/%252e%252e%252foutside%252fsecret.js",
      "/..%5coutside%5csecret.js",
      "/..\\outside\\secret.js",
      "/linked%2fsecret.js",
      "/app.js%00.html",
      "/%00",
      "/.%2e/outside/secret.js",
      "/assets/..%2f..%2foutside/secret.js",
    ];
    for (const path of paths) {
      const answer = await rawHttp(port, request(`GET ${path} HTTP/1.1`));
      expectAnswered(answer, 404, path);
      expect(answer.body, path).not.toContain("outside");
    }
  });
});
