// `pincer cron …` against a real gateway (port 0, temp state, fake model): add, list, edit,
// disable/enable, run, runs, rm, status; and bad flags refused before connecting, naming the flag.
import { afterEach, describe, expect, it } from "vitest";
import { ExitCode } from "../src/cli/command-context.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const cli = (env: Record<string, string>, argv: string[]) => createCliSandbox(env).run(argv);

describe("pincer cron", () => {
  it("refuses bad flags before connecting, naming the flag", async () => {
    const sb = createCliSandbox();
    const add = (...flags: string[]) => sb.run(["cron", "add", "--name", "x", ...flags]);
    const both = await add("--at", "20m", "--every", "1h", "--message", "hi");
    expect(both.code).toBe(ExitCode.usage);
    expect(both.stderr).toContain(
      "choose one schedule: --at, --every or --cron (got --at and --every)",
    );
    const expr = await add("--cron", "99 * * * *", "--message", "hi");
    expect(expr.code).toBe(ExitCode.usage);
    expect(expr.stderr).toContain('--cron "99 * * * *" is not a valid cron expression');
    const tz = await add("--cron", "0 7 * * *", "--tz", "Mars/Olympus", "--message", "hi");
    expect(tz.stderr).toContain('--tz "Mars/Olympus" is not a known IANA time zone');
    const at = await add("--at", "whenever", "--system-event", "x");
    expect(at.stderr).toContain('--at "whenever" is neither an ISO time');
    const session = await add("--every", "1h", "--message", "hi", "--session", "main");
    expect(session.stderr).toContain("--session main needs --system-event");
    const none = await add("--every", "1h");
    expect(none.stderr).toContain("a payload is required");
    const every = await add("--every", "often", "--message", "hi");
    expect(every.stderr).toContain('--every "often": expected a duration');
    const hookUrl = await add("--every", "1h", "--message", "hi", "--webhook", "example.com/x");
    expect(hookUrl.code).toBe(ExitCode.usage);
    expect(hookUrl.stderr).toContain('--webhook "example.com/x": expected an http(s) URL');
    const hookAnd = await add(
      "--every",
      "1h",
      "--message",
      "hi",
      "--webhook",
      "https://h.invalid",
      "--channel",
      "telegram",
    );
    expect(hookAnd.stderr).toContain("--webhook does not go with --channel");
  });

  it("adds a webhook job (either payload) and moves an announce job to a webhook with edit", async () => {
    box = await createGatewaySandbox();
    const { env, gw } = box;
    const url = ["--url", gw.url];
    const run = async (argv: string[]) => {
      const out = await cli(env, [...argv, "--json", ...url]);
      expect(out.stderr).toBe("");
      return JSON.parse(out.stdout);
    };
    const hook = "https://hooks.invalid/cron";
    const main = await run([
      "cron",
      "add",
      "--name",
      "Ping",
      "--every",
      "1h",
      "--system-event",
      "Check.",
      "--webhook",
      hook,
    ]);
    expect(main).toMatchObject({ sessionTarget: "main", delivery: { mode: "webhook", to: hook } });
    const announced = await run([
      "cron",
      "add",
      "--name",
      "Brief",
      "--every",
      "1h",
      "--message",
      "Brief.",
      "--channel",
      "telegram",
      "--to",
      "42",
    ]);
    expect(announced.delivery).toEqual({ mode: "announce", channel: "telegram", to: "42" });
    const moved = await run([
      "cron",
      "edit",
      announced.id,
      "--webhook",
      hook,
      "--best-effort-deliver",
    ]);
    expect(moved.delivery).toEqual({ mode: "webhook", to: hook, bestEffort: true });
  });

  it("adds, lists, edits, disables, enables, runs and removes a job through the gateway", async () => {
    box = await createGatewaySandbox();
    const { env, gw } = box;
    const url = ["--url", gw.url];
    const added = await cli(env, [
      "cron",
      "add",
      "--name",
      "Digest",
      "--every",
      "1h",
      "--message",
      "Write the digest.",
      "--no-announce",
      "--thinking",
      "low",
      "--json",
      ...url,
    ]);
    expect(added.stderr).toBe("");
    const job = JSON.parse(added.stdout);
    expect(job).toMatchObject({
      name: "Digest",
      schedule: { kind: "every", everyMs: 3_600_000 },
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: "Write the digest.", thinking: "low" },
      delivery: { mode: "none" },
    });

    const listed = JSON.parse((await cli(env, ["cron", "list", "--json", ...url])).stdout);
    expect(listed.jobs.map((j: { id: string }) => j.id)).toEqual([job.id]);
    const table = await cli(env, ["cron", "list", ...url]);
    expect(table.stdout).toMatch(new RegExp(`${job.id}\\s+Digest\\s+every 1h`));

    const edited = JSON.parse(
      (await cli(env, ["cron", "edit", job.id, "--every", "2h", "--json", ...url])).stdout,
    );
    expect(edited.schedule).toEqual({ kind: "every", everyMs: 7_200_000 });
    const disabled = await cli(env, ["cron", "disable", job.id, ...url]);
    expect(disabled.stdout).toContain(`Disabled ${job.id}  Digest  every 2h  disabled`);
    expect(JSON.parse((await cli(env, ["cron", "list", "--json", ...url])).stdout).jobs).toEqual(
      [],
    );
    expect(
      JSON.parse((await cli(env, ["cron", "list", "--all", "--json", ...url])).stdout).jobs,
    ).toHaveLength(1);
    const enabled = await cli(env, ["cron", "enable", job.id, ...url]);
    expect(enabled.stdout).toContain(`Enabled ${job.id}`);

    box.fake.text("Digest: quiet day.");
    const client = await box.connect();
    const finished = client.waitFor(
      (f) => f.event === "cron" && (f.payload as { action?: string }).action === "finished",
    );
    const ran = await cli(env, ["cron", "run", job.id, ...url]);
    expect(ran.stdout).toContain(`Started ${job.id}`);
    await finished;
    const runs = JSON.parse((await cli(env, ["cron", "runs", job.id, "--json", ...url])).stdout);
    expect(runs.entries[0]).toMatchObject({
      jobId: job.id,
      status: "ok",
      summary: "Digest: quiet day.",
      deliveryStatus: "not-requested",
    });
    const status = await cli(env, ["cron", "status", ...url]);
    expect(status.stdout).toContain("Cron: enabled");
    expect(status.stdout).toContain("Jobs: 1 (1 enabled, 0 running)");

    expect((await cli(env, ["cron", "rm", job.id, ...url])).stdout).toContain(
      `Removed cron job ${job.id}`,
    );
    const again = await cli(env, ["cron", "rm", job.id, ...url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`unknown cron job "${job.id}"`);
    const missing = await cli(env, ["cron", "run", "nope", ...url]);
    expect(missing.stderr).toContain('unknown cron job "nope"');
    client.close();
  });
});
