// What the built `pincer gateway` prints: under `--json` every line of stdout and stderr is a JSON
// object (no banner, no human line), the ready record carries the WebChat URL with the real bound
// port; in human mode one `WebChat: http://127.0.0.1:<port>/` line; no URL when
// `gateway.controlUi.enabled` is false; the token is never printed.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "./helpers/gateway-child.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);

interface Proc {
  out: string;
  err: string;
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}
const live = new Set<Proc>();

function home(config: Record<string, unknown> = {}) {
  const dir = makeTempDir("pincer-gwcon-");
  const stateDir = join(dir, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const logging = { file: join(dir, "gateway.log") };
  writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify({ logging, ...config }));
  return { env: { HOME: dir, OPENCLAW_STATE_DIR: stateDir }, stateDir };
}

function start(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [bin, "gateway", ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc: Proc = {
    out: "",
    err: "",
    exited: new Promise((resolve) => child.once("exit", resolve)),
    kill: (signal) => child.kill(signal),
  };
  child.stdout.on("data", (chunk) => {
    proc.out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    proc.err += chunk;
  });
  live.add(proc);
  void proc.exited.then(() => live.delete(proc));
  return proc;
}

/** Every complete line parsed as a JSON object (a line that is not one fails, naming it). */
function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
      expect(typeof value === "object" && value !== null && !Array.isArray(value), line).toBe(true);
      return value as Record<string, unknown>;
    });
}

const portOf = (url: unknown) => Number(new URL(String(url)).port);

afterEach(async () => {
  const procs = [...live];
  for (const proc of procs) proc.kill("SIGKILL");
  await Promise.all(procs.map((proc) => proc.exited));
});

describe("pincer gateway console output", () => {
  it("--json: only JSON lines on stdout and stderr, the ready record has the WebChat URL", async () => {
    const h = home();
    const gw = start(["--json", "--port", "0"], h.env);
    // SIGTERM at the earliest ready line: still a clean stop (exit 0), the ready record still out.
    await waitUntil(
      () => jsonLines(gw.out).some((line) => line.msg === "gateway ready"),
      "the gateway ready record",
      10_000,
    );
    gw.kill("SIGTERM");
    expect(await gw.exited).toBe(0);
    const ready = jsonLines(gw.out).find((line) => line.msg === "gateway listening")!;
    const port = portOf(ready.url);
    expect(port).toBeGreaterThan(0);
    expect(ready).toMatchObject({
      level: "info",
      url: `ws://127.0.0.1:${port}`,
      webchatUrl: `http://127.0.0.1:${port}/`,
      authMode: "token",
      tokenFile: join(h.stateDir, "gateway.token"),
      tokenCreated: true,
    });
    const all = [...jsonLines(gw.out), ...jsonLines(gw.err)];
    expect(all.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["gateway ready", "gateway listening", "gateway stopped"]),
    );
    for (const line of all) expect(typeof line.level).toBe("string");
    const token = readFileSync(join(h.stateDir, "gateway.token"), "utf8").trim();
    expect(gw.out + gw.err).not.toContain(token);
  });

  it("--json: a start that fails is JSON on stderr too (invalid config, port in use, locked)", async () => {
    const bad = home({ gateway: { port: "not a port" } });
    const invalid = start(["--json"], bad.env);
    expect(await invalid.exited).toBe(1);
    expect(jsonLines(invalid.out)).toEqual([]);
    const records = jsonLines(invalid.err);
    expect(records.at(-1)).toMatchObject({ level: "fatal", exitCode: 1 });
    expect(String(records.at(-1)?.msg)).toContain("is invalid");
    expect(records.some((line) => String(line.msg).includes("gateway.port"))).toBe(true);

    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    try {
      const port = String((blocker.address() as { port: number }).port);
      const busy = start(["--json", "--port", port], home().env);
      expect(await busy.exited).toBe(1);
      jsonLines(busy.out);
      expect(jsonLines(busy.err).at(-1)).toMatchObject({
        level: "fatal",
        msg: `port ${port} on 127.0.0.1 is already in use`,
      });
    } finally {
      blocker.close();
    }

    const shared = home();
    const first = start(["--json", "--port", "0"], shared.env);
    await waitUntil(() => first.out.includes('"gateway listening"'), "the first gateway", 10_000);
    const second = start(["--json", "--port", "0"], shared.env);
    expect(await second.exited).toBe(1);
    expect(jsonLines(second.out)).toEqual([]);
    const locked = jsonLines(second.err).at(-1);
    expect(locked).toMatchObject({ level: "fatal", exitCode: 1 });
    expect(String(locked?.msg)).toContain("is another gateway running?");
  });

  it("human mode prints one WebChat line with the bound port, without the token", async () => {
    const h = home();
    const gw = start(["--port", "0"], h.env);
    await waitUntil(() => /WebChat: \S+\n/.test(gw.out), "the WebChat line", 10_000);
    const url = /listening on (ws:\/\/\S+)/.exec(gw.out)?.[1];
    const port = portOf(url);
    expect(port).toBeGreaterThan(0);
    expect(gw.out.match(/^WebChat: .*$/gm)).toEqual([`WebChat: http://127.0.0.1:${port}/`]);
    const token = readFileSync(join(h.stateDir, "gateway.token"), "utf8").trim();
    expect(gw.out + gw.err).not.toContain(token);
    gw.kill("SIGTERM");
    expect(await gw.exited).toBe(0);
  });

  it("prints no WebChat URL when gateway.controlUi.enabled is false", async () => {
    const off = { gateway: { controlUi: { enabled: false } } };
    const human = start(["--port", "0"], home(off).env);
    const json = start(["--json", "--port", "0"], home(off).env);
    await waitUntil(() => human.out.includes("listening on"), "the human banner", 10_000);
    await waitUntil(
      () => json.out.includes('"gateway listening"'),
      "the JSON ready record",
      10_000,
    );
    expect(human.out).not.toContain("WebChat");
    const ready = jsonLines(json.out).find((line) => line.msg === "gateway listening");
    expect(ready).toBeDefined();
    expect(ready).not.toHaveProperty("webchatUrl");
    expect(json.out).not.toContain("http://");
  });
});
