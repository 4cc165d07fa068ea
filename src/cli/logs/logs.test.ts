// `pincer logs`: the file the gateway's real logger writes (pino + rotating file), read back as the last
// lines for people or as JSON, masked; and --follow across size rotation and the next day's file.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it, vi } from "vitest";
import { callCommand, createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { fakeProcessIo } from "../../../test/helpers/fake-process-io.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createDaemonLogger } from "../../gateway/logging/daemon-logger.js";
import { archivePath } from "../../gateway/logging/rotating-file.js";
import type { LoggingConfig } from "../../protocol/config/index.js";
import type { CliIo } from "../command-context.js";
import { logsWith } from "./logs.js";

type LogsOptions = Parameters<typeof logsWith>[1];

function gatewayLogger(params: {
  logging: Record<string, unknown>;
  dir?: string;
  now: () => number;
}) {
  return createDaemonLogger({
    pino,
    logging: { consoleLevel: "silent", ...params.logging } as unknown as LoggingConfig,
    stdout: () => {},
    stderr: () => {},
    isTty: false,
    color: false,
    ...(params.dir ? { logDir: params.dir } : {}),
    now: params.now,
  });
}

/** Runs logsWith in-process, collecting stdout lines as they come. */
function startLogs(params: {
  env: Record<string, string>;
  opts: LogsOptions;
  logDir?: string;
  now?: () => number;
}) {
  const lines: string[] = [];
  let stderr = "";
  const stop = new AbortController();
  const io: CliIo = {
    stdout: (text) => lines.push(...text.split("\n").filter((line) => line !== "")),
    stderr: (text) => {
      stderr += text;
    },
    env: params.env,
    readStdin: async () => "",
    ...fakeProcessIo(),
    isTty: false,
  };
  const done = logsWith({ ...io, color: false }, params.opts, {
    signal: stop.signal,
    now: params.now ?? Date.now,
    ...(params.logDir ? { logDir: params.logDir } : {}),
  });
  return { lines, stderr: () => stderr, stop: () => stop.abort(), done };
}

describe("pincer logs", () => {
  it("says where it looked when there is no log yet", async () => {
    const sandbox = createCliSandbox();
    const file = join(sandbox.home, "logs", "gateway.log");
    sandbox.writeConfig(JSON.stringify({ logging: { file } }));
    const run = await sandbox.run(["logs"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`no gateway log yet: ${file} does not exist`);
    expect(run.stderr).toContain("pincer gateway");
  });

  it("prints the last N lines as time, level and message, or the JSON lines; secrets masked", async () => {
    const sandbox = createCliSandbox();
    const file = join(sandbox.home, "gateway.log");
    sandbox.writeConfig(JSON.stringify({ logging: { file } }));
    const daemon = gatewayLogger({ logging: { file }, now: Date.now });
    for (let n = 1; n <= 5; n++) daemon.logger.info({ n }, `line ${n}`);
    daemon.logger.warn("provider key sk-abcdefghijklmnopqrstuvwx rejected");
    daemon.close();

    const human = await sandbox.run(["logs", "--limit", "3"]);
    expect(human.code).toBe(0);
    const shown = human.stdout.trimEnd().split("\n");
    expect(shown).toHaveLength(3);
    expect(shown[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO {2}line 4 n=4$/);
    expect(shown[2]).toMatch(/ WARN {2}provider key sk-abc…uvwx rejected$/);
    expect(human.stdout).not.toContain("sk-abcdefghijklmnopqrstuvwx");

    const json = await sandbox.run(["logs", "--json", "--limit", "2"]);
    const records = json.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.msg)).toEqual(["line 5", "provider key sk-abc…uvwx rejected"]);
    expect(records[0]).toMatchObject({ level: "info", n: 5 });

    const utc = await sandbox.run(["logs", "--utc", "--limit", "1"]);
    expect(utc.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN /);
    const bad = await sandbox.run(["logs", "--limit", "zero"]);
    expect(bad.code).toBe(2);
  });

  it("--follow waits for the io's SIGINT or SIGTERM, then exits 0 and stops listening", async () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const sandbox = createCliSandbox();
      const file = join(sandbox.home, "gateway.log");
      sandbox.writeConfig(JSON.stringify({ logging: { file } }));
      const daemon = gatewayLogger({ logging: { file }, now: Date.now });
      daemon.logger.info("before the stop");
      daemon.close();
      const run = sandbox.run(["logs", "--follow", "--interval", "20"]);
      await vi.waitFor(() => expect(sandbox.signals.listeners(signal)).toBe(1));
      sandbox.signals.send(signal);
      const done = await run;
      expect(done.code).toBe(0);
      expect(done.stdout).toContain("before the stop");
      expect(sandbox.signals.listeners("SIGINT") + sandbox.signals.listeners("SIGTERM")).toBe(0);
    }
  });

  it("--follow keeps every line, in order, across size rotations", async () => {
    const sandbox = createCliSandbox();
    const file = join(sandbox.home, "gateway.log");
    sandbox.writeConfig(JSON.stringify({ logging: { file } }));
    const daemon = gatewayLogger({ logging: { file, maxFileBytes: 400 }, now: Date.now });
    daemon.logger.info("before 1");
    const follow = startLogs({
      env: sandbox.env,
      opts: { follow: true, interval: "5", json: true },
    });
    await vi.waitFor(() => expect(follow.lines).toHaveLength(1));
    const expected = ["before 1"];
    for (let n = 1; n <= 12; n++) {
      daemon.logger.info({ pad: "x".repeat(60) }, `during ${n}`);
      expected.push(`during ${n}`);
      // Let the follower see some rotations between its polls and some within one poll.
      if (n % 3 === 0) await new Promise((done) => setTimeout(done, 20));
    }
    expect(existsSync(archivePath(file, 2))).toBe(true);
    await vi.waitFor(() => expect(follow.lines).toHaveLength(expected.length), { timeout: 5000 });
    follow.stop();
    expect(await follow.done).toBe(0);
    daemon.close();
    expect(follow.lines.map((line) => JSON.parse(line).msg)).toEqual(expected);
  });

  it("--follow waits for a missing file and moves on to the next day's dated file", async () => {
    const sandbox = createCliSandbox();
    const dir = makeTempDir("pincer-logdir-");
    let clock = new Date(2026, 10, 30, 23, 59, 0).getTime();
    const now = () => clock;
    const follow = startLogs({
      env: sandbox.env,
      opts: { follow: true, interval: "5" },
      logDir: dir,
      now,
    });
    await vi.waitFor(() => expect(follow.stderr()).toContain("waiting for"));
    expect(follow.stderr()).toContain(join(dir, "openclaw-2026-11-30.log"));
    const daemon = gatewayLogger({ logging: {}, dir, now });
    daemon.logger.info("last of november");
    await vi.waitFor(() => expect(follow.lines.join("\n")).toContain("last of november"));
    clock += 2 * 60_000;
    daemon.logger.info("first of december");
    await vi.waitFor(() => expect(follow.lines.join("\n")).toContain("first of december"));
    expect(follow.stderr()).toContain(
      `now following ${join(dir, "openclaw-2026-12-01.log")} (new day)`,
    );
    follow.stop();
    await follow.done;
    daemon.close();
    expect(follow.lines).toHaveLength(2);
  });

  it("without --follow and no file of today, shows the newest dated file", async () => {
    const sandbox = createCliSandbox();
    const dir = makeTempDir("pincer-logdir-");
    let clock = new Date(2026, 10, 28, 12, 0, 0).getTime();
    const daemon = gatewayLogger({ logging: {}, dir, now: () => clock });
    daemon.logger.info("from the 28th");
    clock = new Date(2026, 10, 29, 12, 0, 0).getTime();
    daemon.logger.info("from the 29th");
    daemon.close();
    const io = await callCommand(
      (ctx, input) =>
        logsWith(ctx, input.opts as LogsOptions, {
          signal: new AbortController().signal,
          now: () => new Date(2026, 11, 1, 9, 0, 0).getTime(),
          logDir: dir,
        }),
      sandbox.env,
    );
    expect(io.code).toBe(0);
    expect(io.stdout).toContain("from the 29th");
    expect(io.stdout).not.toContain("from the 28th");
  });
});
