// memory_search and memory_get end to end: the real gateway on port 0, a real WS client, the fake
// model calling memory_search then memory_get over a generated memory folder; the tool results the
// model receives are checked, as are deletions, the persisted index and a group session's refusal.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  chatSendAndWait,
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  sendChat,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** 40 daily notes of filler; day 17 holds the garage code on lines 4-5 under its own heading. */
function generateMemory(workspace: string): void {
  mkdirSync(join(workspace, "memory", "2026"), { recursive: true });
  writeFileSync(join(workspace, "MEMORY.md"), "# Preferences\nLikes short answers.\n");
  for (let day = 1; day <= 40; day++) {
    const name = `2026/day-${String(day).padStart(2, "0")}.md`;
    const body =
      day === 17
        ? "# Errands\nbought milk and bread\n\n# House\nthe garage code is 4711\nchanged it after the move\n"
        : `# Day ${day}\nwalked the dog, answered mail, read about gardens number ${day}\n`;
    writeFileSync(join(workspace, "memory", name), body);
  }
}

/** The JSON payloads of the tool results in the model's `index`-th request. */
function toolPayloads(box: GatewaySandbox, index: number): Loose[] {
  const body = box.fake.chatRequests[index]?.body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return body.messages
    .filter((m) => m.role === "tool")
    .map((m) => {
      const text =
        typeof m.content === "string"
          ? m.content
          : (m.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
      return JSON.parse(text);
    });
}

describe("memory tools through the gateway", () => {
  it("the model searches the memory folder, reads the hit, and never sees a deleted file", async () => {
    box = await createGatewaySandbox();
    const workspace = join(box.home, "workspace");
    generateMemory(workspace);
    const client = await box.connect();

    box.fake.toolCall("memory_search", { query: "garage code" });
    box.fake.toolCall("memory_get", { path: "memory/2026/day-17.md", from: 5, lines: 1 });
    box.fake.text("The garage code is 4711.");
    const turn = await sendChat(client, "what is the garage code?");
    expect(turn.text).toBe("The garage code is 4711.");

    const [search] = toolPayloads(box, 1);
    expect(search.provider).toBe("bm25");
    expect(search.results[0]).toMatchObject({
      path: "memory/2026/day-17.md",
      startLine: 4,
      endLine: 6,
      snippet: "# House\nthe garage code is 4711\nchanged it after the move",
      source: "memory",
    });
    expect(search.results[0].score).toBeGreaterThan(0);
    expect(search.results.length).toBeLessThanOrEqual(6);
    const get = toolPayloads(box, 2)[1];
    expect(get).toEqual({
      path: "memory/2026/day-17.md",
      from: 5,
      to: 5,
      totalLines: 6,
      text: "the garage code is 4711",
      truncated: false,
      nextFrom: 6,
    });
    expect(existsSync(join(box.stateDir, "memory", "main.json"))).toBe(true);

    rmSync(join(workspace, "memory", "2026", "day-17.md"));
    box.fake.toolCall("memory_search", { query: "garage code dog" });
    box.fake.text("I no longer have it.");
    await sendChat(client, "and now?");
    const after = toolPayloads(box, 4).at(-1)!;
    expect(after.results).toHaveLength(6);
    expect(after.results.map((r: { path: string }) => r.path)).not.toContain(
      "memory/2026/day-17.md",
    );
  });

  it("with an embedding provider the search finds by meaning, and says which model ranked it", async () => {
    const inputs: string[][] = [];
    // A fake OpenAI-compatible /embeddings: vehicle words share one dimension, everything else another.
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        const { input } = JSON.parse(text) as { input: string[] };
        inputs.push(input);
        const vehicle = (s: string) => (/\b(car|automobile|vehicle)\b/i.test(s) ? 1 : 0);
        const data = input.map((s, index) => ({ index, embedding: [vehicle(s), 1 - vehicle(s)] }));
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      box = await createGatewaySandbox({
        config: () => ({
          agents: {
            defaults: {
              memorySearch: {
                provider: "custom",
                model: "toy-embed",
                remote: { baseUrl, apiKey: "ek" },
              },
            },
          },
        }),
      });
      const workspace = join(box.home, "workspace");
      mkdirSync(join(workspace, "memory"), { recursive: true });
      writeFileSync(join(workspace, "MEMORY.md"), "# Garage\nThe car is parked at level 3.\n");
      writeFileSync(join(workspace, "memory", "notes.md"), "# Food\nBuy bread.\n");
      const client = await box.connect();
      box.fake.toolCall("memory_search", { query: "automobile" });
      box.fake.text("Level 3.");
      await sendChat(client, "where is the automobile?");
      const [search] = toolPayloads(box, 1);
      expect(search).toMatchObject({ provider: "custom", model: "toy-embed", mode: "hybrid" });
      expect(search.results[0]).toMatchObject({ path: "MEMORY.md", source: "memory" });
      expect(search.results[0].snippet).toContain("level 3");
      expect(inputs.at(-1)).toEqual(["automobile"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a group session gets a refusal instead of memory", async () => {
    box = await createGatewaySandbox();
    generateMemory(join(box.home, "workspace"));
    const client = await box.connect();
    box.fake.toolCall("memory_search", { query: "garage code" });
    box.fake.text("Not here.");
    const { ackOk, event } = await chatSendAndWait(client, {
      message: "garage code?",
      runId: "group-1",
      sessionKey: "agent:main:telegram:group:-100777",
    });
    expect(ackOk).toBe(true);
    expect(event.state).toBe("final");
    const [refused] = toolPayloads(box, 1);
    expect(refused).toMatchObject({ results: [], disabled: true });
    expect(refused.error).toContain("memory is private");
    expect(JSON.stringify(box.fake.chatRequests[1]?.body)).not.toContain("4711");
  });
});
