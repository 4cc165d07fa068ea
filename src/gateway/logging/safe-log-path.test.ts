// The log directory and files against a /tmp squatter, in temp dirs: created 0700 / 0600, refused
// when writable by others without the sticky bit, owned by another user, reached through a planted
// symlink, hard link or FIFO; the daemon logger then stays on the console and says why.
// Ownership by another user needs root (chown to uid 65534); those cases skip with a notice otherwise.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createDaemonLogger } from "./daemon-logger.js";
import { datedLogFileName, RotatingLogFile } from "./rotating-file.js";
import { prepareLogDir, UnsafeLogPathError } from "./safe-log-path.js";

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
if (!asRoot)
  console.warn("safe-log-path tests: not root, the other-user ownership cases are skipped");

const day = new Date(2026, 2, 14, 9, 30, 0).getTime();
const fileName = datedLogFileName(new Date(day));
const roots: string[] = [];

function tempRoot(): string {
  const root = makeTempDir("pincer-logdir-");
  roots.push(root);
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function modeOf(path: string): number {
  return statSync(path).mode & 0o7777;
}

function open(dir: string, now = () => day): RotatingLogFile {
  return new RotatingLogFile({ dir, now });
}

/** The daemon logger over `dir`: whether it kept a file, and what it said on the console. */
function daemonLogger(dir: string) {
  const err: string[] = [];
  const daemon = createDaemonLogger({
    pino,
    stdout: () => {},
    stderr: (text) => err.push(text),
    isTty: false,
    color: false,
    logDir: dir,
    now: () => day,
  });
  daemon.logger.info("hello");
  daemon.close();
  return { file: daemon.file, warnings: err.join("") };
}

describe("log directory", () => {
  it("creates a missing directory (and parents) 0700 and the log file 0600", () => {
    const dir = join(tempRoot(), "a", "openclaw");
    const log = open(dir);
    log.write("line\n");
    log.close();
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, fileName))).toBe(0o600);
    expect(readFileSync(join(dir, fileName), "utf8")).toBe("line\n");
  });

  it("refuses a directory writable by group or others without the sticky bit", () => {
    for (const mode of [0o777, 0o770, 0o722, 0o702]) {
      const dir = join(tempRoot(), "openclaw");
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(() => open(dir), mode.toString(8)).toThrow(UnsafeLogPathError);
      expect(() => open(dir)).toThrow(/writable by group or others/);
      expect(existsSync(join(dir, fileName))).toBe(false);
    }
  });

  it("accepts a shared directory with the sticky bit, and a directory only you can write", () => {
    for (const mode of [0o1777, 0o755, 0o700]) {
      const dir = join(tempRoot(), "openclaw");
      mkdirSync(dir);
      chmodSync(dir, mode);
      const log = open(dir);
      log.write("ok\n");
      log.close();
      expect(modeOf(join(dir, fileName))).toBe(0o600);
    }
  });

  it("follows your own symlink to a safe directory but not to an unsafe one", () => {
    const root = tempRoot();
    mkdirSync(join(root, "safe"), { mode: 0o700 });
    mkdirSync(join(root, "open"));
    chmodSync(join(root, "open"), 0o777);
    symlinkSync(join(root, "safe"), join(root, "to-safe"));
    symlinkSync(join(root, "open"), join(root, "to-open"));
    open(join(root, "to-safe")).close();
    expect(existsSync(join(root, "safe", fileName))).toBe(true);
    expect(() => open(join(root, "to-open"))).toThrow(/writable by group or others/);
    writeFileSync(join(root, "plain"), "");
    expect(() => prepareLogDir(join(root, "plain"))).toThrow();
  });

  it.skipIf(!asRoot)("refuses a directory owned by another user (as root: chown 65534)", () => {
    const dir = join(tempRoot(), "openclaw");
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, NOBODY, NOBODY);
    expect(() => open(dir)).toThrow(/owned by uid 65534, not by you/);
    expect(existsSync(join(dir, fileName))).toBe(false);
  });

  it.skipIf(!asRoot)("refuses a symlink planted by another user, even to a good directory", () => {
    const root = tempRoot();
    mkdirSync(join(root, "mine"), { mode: 0o700 });
    symlinkSync(join(root, "mine"), join(root, "openclaw"));
    lchownSync(join(root, "openclaw"), NOBODY, NOBODY);
    expect(() => open(join(root, "openclaw"))).toThrow(/symlink owned by uid 65534/);
  });
});

describe("log files", () => {
  it("never writes through a symlink planted under the log name", () => {
    const root = tempRoot();
    const dir = join(root, "openclaw");
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(root, "victim"), "precious\n");
    symlinkSync(join(root, "victim"), join(dir, fileName));
    expect(() => open(dir)).toThrow(/is a symlink/);
    expect(readFileSync(join(root, "victim"), "utf8")).toBe("precious\n");
  });

  it("refuses a hard link and a FIFO under the log name", () => {
    const root = tempRoot();
    const dir = join(root, "openclaw");
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(root, "victim"), "precious\n", { mode: 0o600 });
    linkSync(join(root, "victim"), join(dir, fileName));
    expect(() => open(dir)).toThrow(/hard links/);
    expect(readFileSync(join(root, "victim"), "utf8")).toBe("precious\n");
    rmSync(join(dir, fileName));
    execFileSync("mkfifo", [join(dir, fileName)]);
    expect(() => open(dir)).toThrow(/not a regular file/);
  });

  it("narrows an existing log file readable by others to 0600", () => {
    const dir = join(tempRoot(), "openclaw");
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, fileName), "old\n");
    chmodSync(join(dir, fileName), 0o644);
    const log = open(dir);
    log.write("new\n");
    log.close();
    expect(modeOf(join(dir, fileName))).toBe(0o600);
    expect(readFileSync(join(dir, fileName), "utf8")).toBe("old\nnew\n");
  });

  it.skipIf(!asRoot)("refuses a log file owned by another user (as root: chown 65534)", () => {
    const dir = join(tempRoot(), "openclaw");
    mkdirSync(dir, { mode: 0o1777 });
    chmodSync(dir, 0o1777);
    writeFileSync(join(dir, fileName), "planted\n", { mode: 0o666 });
    chownSync(join(dir, fileName), NOBODY, NOBODY);
    expect(() => open(dir)).toThrow(/owned by uid 65534/);
    expect(readFileSync(join(dir, fileName), "utf8")).toBe("planted\n");
  });

  it("checks each new day's file too: a planted one stops file logging, nothing written to it", () => {
    const root = tempRoot();
    const dir = join(root, "openclaw");
    let now = day;
    const log = open(dir, () => now);
    log.write("today\n");
    const tomorrow = day + 24 * 3600_000;
    writeFileSync(join(root, "victim"), "precious\n");
    symlinkSync(join(root, "victim"), join(dir, datedLogFileName(new Date(tomorrow))));
    now = tomorrow;
    expect(() => log.write("tomorrow\n")).toThrow(/is a symlink/);
    expect(readFileSync(join(root, "victim"), "utf8")).toBe("precious\n");
    log.close();
  });
});

describe("daemon logger over an unsafe log directory", () => {
  it("keeps running on the console only and warns naming the directory and the fix", () => {
    const dir = join(tempRoot(), "openclaw");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const result = daemonLogger(dir);
    expect(result.file).toBeUndefined();
    expect(result.warnings).toContain("log file unavailable; logging to the console only");
    expect(result.warnings).toContain(dir);
    expect(result.warnings).toContain("set logging.file");
    expect(existsSync(join(dir, fileName))).toBe(false);
  });
});
