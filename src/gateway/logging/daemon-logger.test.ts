// The daemon logger: pino JSON lines in the dated (or configured) file, console styles, per-sink
// levels, console-only secret masking, and size/date rotation — all in a temp dir.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import type { LoggingConfig } from "../../protocol/config/index.js";
import { formatConsoleRecord } from "./console-format.js";
import { createDaemonLogger } from "./daemon-logger.js";
import { archivePath, datedLogFileName } from "./rotating-file.js";

// `logging` is loosely typed: the schema's level unions have no narrow static type.
function setup(
  params: { logging?: Record<string, unknown>; isTty?: boolean; json?: boolean } = {},
) {
  const dir = makeTempDir("pincer-log-");
  let clock = new Date(2026, 2, 14, 9, 30, 0).getTime();
  const out: string[] = [];
  const err: string[] = [];
  const daemon = createDaemonLogger({
    pino,
    ...(params.logging ? { logging: params.logging as LoggingConfig } : {}),
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    isTty: params.isTty ?? false,
    color: false,
    ...(params.json ? { consoleStyle: "json" as const } : {}),
    logDir: dir,
    now: () => clock,
  });
  const lines = (path: string) =>
    readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const { logger } = daemon;
  return { dir, daemon, logger, out, err, lines, advance: (ms: number) => (clock += ms) };
}

describe("daemon logger (pino)", () => {
  it("writes JSON lines to the dated default file and JSON to stdout off a terminal", () => {
    const t = setup();
    t.logger.info({ url: "ws://127.0.0.1:1" }, "gateway ready");
    t.logger.warn({ ms: 12 }, "slow");
    const path = join(t.dir, "openclaw-2026-03-14.log");
    expect(t.daemon.file).toBe(path);
    const [ready, slow] = t.lines(path);
    expect(ready).toMatchObject({ level: "info", msg: "gateway ready", url: "ws://127.0.0.1:1" });
    expect(ready.time).toBe(new Date(2026, 2, 14, 9, 30, 0).toISOString());
    expect(slow).toMatchObject({ level: "warn", msg: "slow", ms: 12 });
    expect(JSON.parse(t.out[0])).toMatchObject({ level: "info", msg: "gateway ready" });
    expect(JSON.parse(t.err[0])).toMatchObject({ level: "warn", msg: "slow" });
    t.daemon.close();
  });

  it("writes a child logger's bindings into each of its lines, in the file and on the console", () => {
    const t = setup({ isTty: true });
    const account = t.logger.child({ channel: "telegram", accountId: "main" });
    account.warn({ updateId: 7 }, "update skipped");
    account.child({ chatId: "42" }).info("sent");
    t.logger.info("parent line");
    const [skipped, sent, parent] = t.lines(t.daemon.file!);
    expect(skipped).toMatchObject({
      level: "warn",
      msg: "update skipped",
      channel: "telegram",
      accountId: "main",
      updateId: 7,
    });
    expect(sent).toMatchObject({
      msg: "sent",
      channel: "telegram",
      accountId: "main",
      chatId: "42",
    });
    expect(parent).not.toHaveProperty("channel");
    expect(t.err[0]).toMatch(
      /WARN {2}update skipped channel=telegram accountId=main updateId=7\n$/,
    );
    expect(t.out[0]).toMatch(/INFO {2}sent channel=telegram accountId=main chatId=42\n$/);
    t.daemon.close();
  });

  it("prints pretty one-liners on a terminal and honours consoleStyle compact", () => {
    const tty = setup({ isTty: true });
    tty.logger.info({ authMode: "token" }, "gateway ready");
    expect(tty.out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}gateway ready authMode=token\n$/);
    const compact = setup({ isTty: true, logging: { consoleStyle: "compact" } });
    compact.logger.info({ n: 1 }, "hello");
    expect(compact.out[0]).toMatch(/^\S+Z info hello \{"n":1\}\n$/);
    tty.daemon.close();
    compact.daemon.close();
  });

  it("filters file and console by their own levels", () => {
    const t = setup({ logging: { level: "debug", consoleLevel: "warn" } });
    t.logger.debug("details");
    t.logger.info("normal");
    t.logger.error("broken");
    expect(t.lines(t.daemon.file!).map((line) => line.msg)).toEqual([
      "details",
      "normal",
      "broken",
    ]);
    expect(t.out).toEqual([]);
    expect(t.err).toHaveLength(1);
    t.daemon.close();
  });

  it("writes no file at level silent and uses logging.file when set", () => {
    const silent = setup({ logging: { level: "silent" } });
    silent.logger.info("x");
    expect(silent.daemon.file).toBeUndefined();
    expect(readdirSync(silent.dir)).toEqual([]);
    const dir = makeTempDir("pincer-logfile-");
    const fixed = setup({ logging: { file: join(dir, "gw.log") } });
    fixed.logger.info("to the fixed file");
    expect(fixed.lines(join(dir, "gw.log"))[0].msg).toBe("to the fixed file");
    fixed.daemon.close();
  });

  it("masks secrets on the console only, unless redactSensitive is off", () => {
    const secret = "sk-abcdefghijklmnopqrstuvwxyz123456";
    const t = setup({ isTty: true });
    t.logger.info({ token: "short-token" }, `calling with ${secret}`);
    expect(t.out[0]).toContain("sk-abc…3456");
    expect(t.out[0]).not.toContain(secret);
    expect(t.lines(t.daemon.file!)[0].msg).toContain(secret);
    const off = setup({ isTty: true, logging: { redactSensitive: "off" } });
    off.logger.info(`calling with ${secret}`);
    expect(off.out[0]).toContain(secret);
    const custom = setup({ isTty: true, logging: { redactPatterns: ["/code-(\\d+)/"] } });
    custom.logger.info("pairing code-12345 and sk-not-masked-by-default-here");
    expect(custom.out[0]).toContain("code-***");
    expect(custom.out[0]).toContain("sk-not-masked");
  });

  it("rotates at maxFileBytes keeping five archives, and starts a new file each day", () => {
    const t = setup({ logging: { maxFileBytes: 400 } });
    for (let i = 0; i < 40; i++) t.logger.info(`line ${i} ${"x".repeat(100)}`);
    const path = join(t.dir, "openclaw-2026-03-14.log");
    expect(existsSync(archivePath(path, 1))).toBe(true);
    expect(existsSync(archivePath(path, 5))).toBe(true);
    expect(existsSync(archivePath(path, 6))).toBe(false);
    expect(readFileSync(path, "utf8").length).toBeLessThanOrEqual(400);
    expect(t.lines(path).at(-1)?.msg).toContain("line 39");
    t.advance(24 * 60 * 60 * 1000);
    t.logger.info("tomorrow");
    expect(t.daemon.file).toBe(join(t.dir, datedLogFileName(new Date(2026, 2, 15, 9, 30))));
    expect(t.lines(t.daemon.file!)[0].msg).toBe("tomorrow");
    t.daemon.close();
  });

  it("keeps an unserializable field from breaking the pretty line", () => {
    const line = formatConsoleRecord(
      { level: "info", time: "2026-01-01T00:00:00.000Z", msg: "m", big: 10n as unknown },
      { style: "pretty", color: false },
    );
    expect(line).toContain("big=[unserializable");
  });
});
