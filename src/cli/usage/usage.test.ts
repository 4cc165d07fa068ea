// `pincer usage` over a usage log written into a CLI sandbox: rows per agent / model / day, the
// budget line of a budgeted agent, JSON, and clear errors for a bad --by or --since.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { utcDay } from "../../runtime/usage/calendar.js";

let sb: CliSandbox | undefined;
afterEach(() => {
  if (sb) rmSync(sb.home, { recursive: true, force: true });
  sb = undefined;
});

function line(agentId: string, ts: number, usd: number, model: string, status = "ok") {
  const cost = { input: usd, output: 0, cacheRead: 0, cacheWrite: 0, total: usd };
  return JSON.stringify({
    ts,
    agentId,
    sessionKey: `agent:${agentId}:main`,
    runId: `${agentId}-${ts}`,
    provider: "fake",
    model,
    input: 1000,
    output: 20,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 1020,
    cost,
    missingCost: false,
    status,
  });
}

function setup(): CliSandbox {
  const box = createCliSandbox();
  box.writeConfig(
    JSON.stringify({
      agents: {
        defaults: { workspace: join(box.home, "ws") },
        list: [
          { id: "main", default: true },
          { id: "work", budget: { daily: 1 } },
        ],
      },
    }),
  );
  const now = Date.now();
  for (const [agentId, rows] of [
    ["main", [line("main", now - 1000, 0.25, "m1"), line("main", now - 900, 0.5, "m2")]],
    ["work", [line("work", now - 800, 1.5, "m1"), line("work", now - 700, 0, "m1", "blocked")]],
  ] as const) {
    const dir = join(box.stateDir, "agents", agentId, "usage");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${utcDay(now)}.jsonl`), `${rows.join("\n")}\n`);
  }
  // Older than --since 7d: left out.
  const old = join(box.stateDir, "agents", "main", "usage", "2020-01-01.jsonl");
  writeFileSync(old, `${line("main", Date.parse("2020-01-01T10:00:00Z"), 99, "m1")}\n`);
  return box;
}

describe("pincer usage", () => {
  it("prints a row per agent and the budget line of a budgeted agent", async () => {
    sb = setup();
    const res = await sb.run(["usage"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    expect(lines[0]).toBe(
      "work: 2 turns, 1 blocked · 2000 in / 40 out · cache 0 read / 0 write · $1.50",
    );
    expect(lines[1]).toBe("main: 2 turns · 2000 in / 40 out · cache 0 read / 0 write · $0.75");
    expect(lines[2]).toBe(
      "work: Budget: $1.50 of $1.00 today · at the limit: block · daily limit REACHED",
    );
  });

  it("groups by model or day and prints JSON", async () => {
    sb = setup();
    const byModel = await sb.run(["usage", "--by", "model", "--agent", "main", "--json"]);
    const json = JSON.parse(byModel.stdout);
    expect(json.rows.map((r: { key: string; totalCost: number }) => [r.key, r.totalCost])).toEqual([
      ["fake/m2", 0.5],
      ["fake/m1", 0.25],
    ]);
    expect(json.budgets).toEqual([]);
    const all = JSON.parse(
      (await sb.run(["usage", "--by", "day", "--since", "100000d", "--json"])).stdout,
    );
    expect(all.rows.map((r: { key: string }) => r.key)[0]).toBe("2020-01-01");
  });

  it("names a bad --by, --since or --agent", async () => {
    sb = setup();
    const by = await sb.run(["usage", "--by", "week"]);
    expect(by.code).not.toBe(0);
    expect(by.stderr).toContain("--by must be one of agent, session, model, day");
    const since = await sb.run(["usage", "--since", "soon"]);
    expect(since.stderr).toContain(
      '--since must look like 7d, 24h, 30m or a number of days, got "soon"',
    );
    const agent = await sb.run(["usage", "--agent", "nobody"]);
    expect(agent.stderr).toContain('unknown agent "nobody"');
  });
});
