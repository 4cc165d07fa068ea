// Reading a thread's earlier messages: pages followed by cursor, only messages before the one that
// starts the session, the newest `limit` kept oldest first, senders labelled (this bot: assistant),
// files-only messages as `[attached: …]`, a DM's thread read in its D… channel, a failure keeping
// what was read. The Web API is a plain object answering like Slack does.
import { describe, expect, it } from "vitest";
import type { Logger } from "../index.js";
import { readSlackThreadHistory, slackTsBefore } from "./thread-history.js";

const self = { userId: "UBOT", botId: "BBOT" };
const warnings: unknown[] = [];
const log = { warn: (obj: unknown) => warnings.push(obj), debug: () => {} } as unknown as Logger;

function pagedApi(pages: Record<string, unknown>[][], failAt?: number) {
  const calls: Record<string, unknown>[] = [];
  return {
    calls,
    async apiCall(method: string, options: Record<string, unknown> = {}) {
      calls.push({ method, ...options });
      const index = Number(options.cursor ?? 0);
      if (index === failAt) throw new Error("An API error occurred: ratelimited");
      const more = index + 1 < pages.length;
      return {
        ok: true,
        messages: pages[index] ?? [],
        response_metadata: { next_cursor: more ? String(index + 1) : "" },
      };
    },
  };
}

const query = {
  peer: { kind: "channel" as const, id: "C1" },
  threadId: "1700000001.000100",
  beforeMessageId: "1700000009.000100",
  limit: 3,
};

describe("readSlackThreadHistory", () => {
  it("follows the pages and keeps the newest messages before the starting one, oldest first", async () => {
    const api = pagedApi([
      [
        { ts: "1700000001.000100", user: "UA", text: "root <@UB>" },
        { ts: "1700000002.000100", user: "UB", user_profile: { real_name: "Bea" }, text: "two" },
      ],
      [
        { ts: "1700000003.000100", bot_id: "BBOT", text: "from me" },
        { ts: "1700000004.000100", bot_id: "BOTHER", username: "ci", text: "build ok" },
        { ts: "1700000005.000100", user: "UA", text: "", files: [{ name: "log.txt" }] },
        { ts: "1700000006.000100", user: "UA", text: "" },
        { ts: "1700000009.000100", user: "UA", text: "the starting message" },
        { ts: "1700000010.000100", user: "UA", text: "after it" },
      ],
    ]);
    const messages = await readSlackThreadHistory({
      api,
      self,
      dmChannels: new Map(),
      log,
      query,
    });
    expect(messages.map((m) => `${m.sender}: ${m.body}`)).toEqual([
      "assistant: from me",
      "ci (bot): build ok",
      "UA: [attached: log.txt]",
    ]);
    expect(messages[0]!.timestamp).toBe(1700000003000);
    expect(api.calls[0]).toMatchObject({
      method: "conversations.replies",
      channel: "C1",
      ts: query.threadId,
      latest: query.beforeMessageId,
      limit: 200,
    });
    expect(api.calls[1]).toMatchObject({ cursor: "1" });
    const all = await readSlackThreadHistory({
      api: pagedApi([
        [
          {
            ts: "1700000002.000100",
            user: "UB",
            user_profile: { real_name: "Bea" },
            text: "two <@UA>",
          },
        ],
      ]),
      self,
      dmChannels: new Map(),
      log,
      query,
    });
    expect(all.map((m) => `${m.sender}: ${m.body}`)).toEqual(["Bea: two @UA"]);
  });

  it("reads a DM's thread in its channel, and nothing for a DM whose channel is unknown", async () => {
    const api = pagedApi([[{ ts: "1700000002.000100", user: "UA", text: "hi" }]]);
    const dm = { ...query, peer: { kind: "direct" as const, id: "UA" } };
    const params = { api, self, log, query: dm };
    expect(await readSlackThreadHistory({ ...params, dmChannels: new Map() })).toEqual([]);
    expect(api.calls).toHaveLength(0);
    const read = await readSlackThreadHistory({ ...params, dmChannels: new Map([["UA", "DUA"]]) });
    expect(read).toHaveLength(1);
    expect(api.calls[0]).toMatchObject({ channel: "DUA" });
  });

  it("keeps what was read when a later page fails, and logs it", async () => {
    warnings.length = 0;
    const api = pagedApi(
      [[{ ts: "1700000002.000100", user: "UA", text: "first page" }], [], []],
      1,
    );
    const read = await readSlackThreadHistory({ api, self, dmChannels: new Map(), log, query });
    expect(read.map((m) => m.body)).toEqual(["first page"]);
    expect(warnings).toHaveLength(1);
  });

  it("goes on with what was read when Slack is slow to answer", async () => {
    warnings.length = 0;
    const hanging = { apiCall: () => new Promise<Record<string, unknown>>(() => {}) };
    const read = await readSlackThreadHistory({
      api: hanging,
      self,
      dmChannels: new Map(),
      log,
      query,
      waitMs: 10,
    });
    expect(read).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it("compares Slack timestamps exactly", () => {
    expect(slackTsBefore("1700000001.000100", "1700000001.000101")).toBe(true);
    expect(slackTsBefore("1700000001.000101", "1700000001.000101")).toBe(false);
    expect(slackTsBefore("999.5", "1000.1")).toBe(true);
  });
});
