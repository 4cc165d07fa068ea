import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { silentLogger } from "../../lib/logger.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { createPairingStore } from "../pairing/pairing-store.js";
import type { ChannelAccountConfig, ChannelInbound } from "../types.js";
import { createGroupHistory } from "./group-history.js";
import { openInboundJournal } from "./inbound-journal.js";
import { createMentionPatternCompiler } from "./mention-gate.js";
import { type DispatchRequest, processInbound } from "./pipeline.js";
import { createInboundDedupe } from "./redelivery-filter.js";

let next = 0;
const msg = (extra: Partial<ChannelInbound> = {}): ChannelInbound => ({
  channel: "telegram",
  accountId: "default",
  messageId: String(++next),
  timestamp: 0,
  sender: { id: "42", name: "Ann" },
  peer: { kind: "direct", id: "42" },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
  ...extra,
});

function pipeline(config: ChannelAccountConfig, cfg: OpenClawConfig = {}) {
  const dispatched: DispatchRequest[] = [];
  const pairingReplies: string[] = [];
  const log = silentLogger;
  const stateDir = makeTempDir("pincer-pipe-");
  const journal = openInboundJournal({ stateDir, log });
  const deps = {
    config: () => cfg,
    accountConfig: () => config,
    dedupe: createInboundDedupe(),
    journal,
    history: createGroupHistory(),
    mentionPatterns: createMentionPatternCompiler(),
    pairing: createPairingStore({ stateDir }),
    replyPairing: async (_message: ChannelInbound, code: string) => {
      pairingReplies.push(code);
    },
    dispatch: (request: DispatchRequest) => dispatched.push(request),
    log,
  };
  return { deps, dispatched, pairingReplies, journal };
}

describe("inbound pipeline", () => {
  it("sends a pairing code once; nothing reaches an agent until approval", async () => {
    const p = pipeline({});
    const first = await processInbound(p.deps, msg());
    expect(first).toMatchObject({ status: "pairing", result: { status: "created" } });
    expect(await processInbound(p.deps, msg())).toMatchObject({
      status: "pairing",
      result: { status: "pending" },
    });
    expect(p.pairingReplies).toHaveLength(1);
    expect(p.dispatched).toHaveLength(0);
    p.deps.pairing.approve("telegram", p.pairingReplies[0]!);
    expect(await processInbound(p.deps, msg({ text: "now" }))).toMatchObject({
      status: "dispatched",
    });
    expect(p.dispatched[0]!.body).toBe("now");
  });

  it("drops duplicates before anything else", async () => {
    const p = pipeline({ dmPolicy: "open", allowFrom: ["*"] });
    const message = msg();
    expect((await processInbound(p.deps, message)).status).toBe("dispatched");
    expect(await processInbound(p.deps, message)).toEqual({ status: "duplicate" });
    expect(p.dispatched).toHaveLength(1);
    // Accepted in the journal, not settled: the dispatcher settles it once its reply is out.
    expect(p.journal.pending().map((entry) => entry.inbound.messageId)).toEqual([
      message.messageId,
    ]);
  });

  it("re-submits a journaled message without deduping or journaling it again", async () => {
    const p = pipeline({ dmPolicy: "open", allowFrom: ["*"] });
    const message = msg();
    await processInbound(p.deps, message);
    expect((await processInbound(p.deps, message, { replay: true })).status).toBe("dispatched");
    expect(p.dispatched).toHaveLength(2);
    expect(p.journal.pending()).toHaveLength(1);
  });

  it("keeps unmentioned group messages as context for the next mention of that group", async () => {
    const cfg = { agents: { list: [{ id: "main", groupChat: { mentionPatterns: ["@bot"] } }] } };
    const p = pipeline({ groups: { "*": {} } }, cfg);
    const group = { kind: "group" as const, id: "g" };
    expect(await processInbound(p.deps, msg({ peer: group, text: "one" }))).toEqual({
      status: "context",
      agentIds: ["main"],
    });
    await processInbound(p.deps, msg({ peer: { kind: "group", id: "h" }, text: "other group" }));
    await processInbound(
      p.deps,
      msg({ peer: group, text: "@BOT two", sender: { id: "9", name: "Bo" } }),
    );
    expect(p.dispatched[0]!.body).toContain("Ann: one");
    expect(p.dispatched[0]!.body).not.toContain("other group");
    expect(p.dispatched[0]!.body.endsWith("Bo: @BOT two")).toBe(true);
  });

  it("hands a triggering command to the command step: not dispatched, not settled, context kept", async () => {
    const cfg = { agents: { list: [{ id: "main", groupChat: { mentionPatterns: ["@bot"] } }] } };
    const p = pipeline({ groups: { "*": {} } }, cfg);
    const taken: DispatchRequest[] = [];
    const deps = {
      ...p.deps,
      command: (request: DispatchRequest) => {
        const isCommand = request.message.text.includes("/status");
        if (isCommand) taken.push(request);
        return isCommand;
      },
    };
    const group = { kind: "group" as const, id: "g" };
    await processInbound(deps, msg({ peer: group, text: "earlier talk" }));
    const command = msg({ peer: group, text: "@bot /status" });
    expect(await processInbound(deps, command)).toMatchObject({ status: "command" });
    expect(taken.map((request) => request.message.messageId)).toEqual([command.messageId]);
    expect(p.dispatched).toHaveLength(0);
    // Settled by the command step once its reply is out, not here.
    expect(p.journal.pending().map((entry) => entry.inbound.messageId)).toContain(
      command.messageId,
    );
    await processInbound(deps, msg({ peer: group, text: "@bot and now?" }));
    expect(p.dispatched[0]!.body).toContain("earlier talk");
  });

  it("reports policy drops as values", async () => {
    const p = pipeline({ dmPolicy: "disabled" });
    expect(await processInbound(p.deps, msg())).toEqual({
      status: "dropped",
      reason: "dmPolicy disabled",
    });
    // A refused message's fate is final at once: nothing to replay after a restart.
    expect(p.journal.pending()).toEqual([]);
    expect(p.journal.keys()).toHaveLength(1);
  });
});
