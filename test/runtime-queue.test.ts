// Messages arriving during a run, through the inbound queue into real runs: collect joins them into
// one follow-up turn; followup runs each on its own.
import { afterEach, describe, expect, it } from "vitest";
import {
  createInboundQueue,
  type InboundQueueEvent,
  type QueueSettings,
} from "../src/runtime/lanes/index.js";
import { queuedTurnRun, type RunResult, runAgent } from "../src/runtime/run/index.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function drive(mode: QueueSettings["mode"], turns: number) {
  sb = await createRuntimeSandbox();
  const box = sb;
  const results: RunResult[] = [];
  const events: InboundQueueEvent[] = [];
  const queue = createInboundQueue({
    scheduler: box.lanes,
    runTurn: async (turn) => {
      const result = await runAgent(box.deps, queuedTurnRun(turn)).result;
      results.push(result);
      return result;
    },
    onEvent: (event) => events.push(event),
  });
  const settings: QueueSettings = { mode, debounceMs: 20, cap: 20, drop: "summarize" };
  box.fake.text("answer one", { delayMs: 150 });
  box.fake.text("answer two");
  box.fake.text("answer three");
  const submit = (text: string) =>
    queue.submit({ sessionKey: "agent:main:main", message: { text }, settings });
  expect(submit("one").disposition).toBe("new_turn");
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(submit("two").disposition).toBe("held");
  expect(submit("three").disposition).toBe("held");
  // Bounded wait for the turns the mode implies (the last one starts after a debounce timer).
  for (let i = 0; i < 200 && results.length < turns; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await box.lanes.idle();
  return { results, requests: box.fake.chatRequests, events };
}

describe("inbound queue → runs", () => {
  it("collect: the two held messages become one turn", async () => {
    const { results, requests } = await drive("collect", 2);
    expect(results.map((r) => r.payloads[0]?.text)).toEqual(["answer one", "answer two"]);
    expect(requests).toHaveLength(2);
    const last = JSON.stringify((requests[1].body as { messages: unknown[] }).messages.at(-1));
    expect(last).toContain("two");
    expect(last).toContain("three");
  });

  it("followup: each held message gets its own turn, in order", async () => {
    const { results, requests } = await drive("followup", 3);
    expect(results.map((r) => r.payloads[0]?.text)).toEqual([
      "answer one",
      "answer two",
      "answer three",
    ]);
    expect(requests).toHaveLength(3);
  });
});
