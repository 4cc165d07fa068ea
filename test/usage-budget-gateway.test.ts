// Usage and budgets through the real gateway (WS client, fake model reporting usage, a custom
// provider whose cost table prices it): each turn is recorded in the usage log and the session
// entry, `usage.cost` / `usage.status` / `health` / `/status` report it, a daily budget blocks the
// turn after the limit with a clear reply and no model call, `warn` answers with a notice,
// `fallback:` answers with the other model, and `perTurnTokens` stops a tool loop (bad budget
// values: src/protocol/config/schema.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  chatEventText,
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  sendChat,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** `fake/m1` costs $1 per 1,000 prompt tokens; `fake/cheap` a tenth of that. */
function pricedModels(baseUrl: string): OpenClawConfig["models"] {
  const model = (id: string, input: number) => ({
    id,
    name: id,
    contextWindow: 32000,
    maxTokens: 1024,
    cost: { input, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  return {
    mode: "merge",
    providers: {
      fake: {
        baseUrl,
        apiKey: "sk-test",
        api: "openai-completions",
        models: [model("m1", 1000), model("cheap", 100)],
      },
    },
  };
}

async function budgetBox(budget: Record<string, unknown>): Promise<GatewaySandbox> {
  return createGatewaySandbox({
    config: (baseUrl) => ({
      models: pricedModels(baseUrl),
      agents: { defaults: { budget, userTimezone: "Europe/Madrid" }, list: [{ id: "main" }] },
    }),
  });
}

async function say(client: TestClient, message: string): Promise<string> {
  const { event } = await sendChat(client, message);
  expect(event.state).toBe("final");
  return chatEventText(event as Loose);
}

const usage = { prompt_tokens: 1000, completion_tokens: 10 };

function usageLines(stateDir: string): Loose[] {
  const dir = join(stateDir, "agents", "main", "usage");
  return readdirSync(dir).flatMap((name) =>
    readFileSync(join(dir, name), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Loose),
  );
}

describe("usage and budgets through the gateway", () => {
  it("records each turn; a daily budget blocks the turn after it, without a model call", async () => {
    box = await budgetBox({ daily: 1.5 });
    box.fake.text("one", { usage }).text("two", { usage }).text("never sent", { usage });
    const client = await box.connect();
    expect(await say(client, "first")).toBe("one");
    expect(await say(client, "second")).toBe("two");
    const blocked = await say(client, "third");
    expect(blocked).toContain("Budget reached");
    expect(blocked).toContain("$2.00 of its $1.50 daily budget");
    expect(blocked).toContain("agents.defaults.budget.daily");
    expect(blocked).toContain("Europe/Madrid");
    expect(box.fake.chatRequests).toHaveLength(2);

    const cost = payloadOf(await client.request("usage.cost", { days: 7 }));
    expect(cost.totals.totalCost).toBeCloseTo(2, 6);
    expect(cost.totals.input).toBe(2000);
    expect(cost.daily).toHaveLength(1);
    const status = payloadOf(await client.request("usage.status", {}));
    expect(status.budgets[0]).toMatchObject({
      agentId: "main",
      timeZone: "Europe/Madrid",
      daily: { usd: 1.5, key: "agents.defaults.budget.daily" },
      exceeded: "daily",
      lastBlocked: { limit: "daily" },
    });
    expect(status.budgets[0].daily.spentUsd).toBeCloseTo(2, 6);
    const health = payloadOf(await client.request("health", {}));
    expect(health.budgets[0]).toMatchObject({ agentId: "main", exceeded: "daily" });
    const statusText = await say(client, "/status");
    expect(statusText).toContain("Cost: $2.00 this session");
    expect(statusText).toContain("daily limit REACHED");

    await box.gw.close("flush");
    const lines = usageLines(box.stateDir);
    expect(lines.map((l) => l.status)).toEqual(["ok", "ok", "blocked"]);
    expect(lines[0]).toMatchObject({ provider: "fake", model: "m1", input: 1000, output: 10 });
    expect(lines[0].cost.total).toBeCloseTo(1, 6);
    expect(lines[2]).toMatchObject({ budget: "daily", totalTokens: 0 });
  });

  it("warn answers as usual with a notice under the reply", async () => {
    box = await budgetBox({ daily: 0.5, onExceed: "warn" });
    box.fake.text("one", { usage }).text("two", { usage });
    const client = await box.connect();
    expect(await say(client, "first")).toBe("one");
    const warned = await say(client, "second");
    expect(warned).toMatch(/^two\n\nBudget warning: agent "main" has spent \$1\.00 of its \$0\.50/);
    expect(box.fake.chatRequests).toHaveLength(2);
  });

  it("fallback:<model> answers with that model once the limit is reached", async () => {
    box = await budgetBox({ monthly: 0.5, onExceed: "fallback:fake/cheap" });
    box.fake.text("one", { usage }).text("two", { usage });
    const client = await box.connect();
    expect(await say(client, "first")).toBe("one");
    const second = await say(client, "second");
    expect(second).toContain("answered by fake/cheap");
    expect(JSON.parse(box.fake.chatRequests[1]!.rawBody).model).toBe("cheap");
    const cost = payloadOf(await client.request("usage.cost", {}));
    expect(cost.totals.totalCost).toBeCloseTo(1.1, 6);
  });

  it("perTurnTokens ends a tool loop before the next model call, with a clear reply", async () => {
    box = await budgetBox({ perTurnTokens: 500 });
    box.fake.toolCall("session_status", {}, { usage }).text("never sent");
    const client = await box.connect();
    const reply = await say(client, "loop");
    expect(reply).toContain("this turn used 1010 tokens, its limit is 500");
    expect(reply).toContain("agents.defaults.budget.perTurnTokens");
    expect(box.fake.chatRequests).toHaveLength(1);
  });
});
