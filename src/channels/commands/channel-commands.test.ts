import { describe, expect, it } from "vitest";
import { silentLogger } from "../../lib/logger.js";
import type { DeliverParams, DeliveryReport } from "../delivery/deliver.js";
import type { DeliveryCoverage } from "../delivery/delivery-coverage.js";
import type { InboundSettlement } from "../inbound/inbound-journal.js";
import type { DispatchRequest } from "../inbound/pipeline.js";
import type { RoutedInbound } from "../inbound/route.js";
import type { ChannelInbound } from "../types.js";
import { createChannelCommands } from "./channel-commands.js";
import type { ChatCommands, CommandInput } from "./service.js";

const inbound: ChannelInbound = {
  channel: "telegram",
  accountId: "default",
  messageId: "7",
  timestamp: 0,
  sender: { id: "42" },
  peer: { kind: "direct", id: "42" },
  text: "/new",
  mentions: [],
  mentionedSelf: false,
  media: [],
};
const routed = {
  targets: [{ agentId: "main", sessionKey: "agent:main:main" }],
  strategy: "parallel",
  mentionGating: true,
  broadcast: false,
} as unknown as RoutedInbound;

function setup(params: { covered?: DeliveryCoverage[]; report?: DeliveryReport } = {}) {
  const handled: CommandInput[] = [];
  const delivered: DeliverParams[] = [];
  const settled: Array<[string, InboundSettlement]> = [];
  const commands: ChatCommands = {
    recognizes: (input) => input.text.startsWith("/new"),
    menu: () => ({ native: "auto", commands: [] }),
    handle: async (input) => {
      handled.push(input);
      return { name: "new", text: "New session started.", refused: false };
    },
  };
  const step = createChannelCommands({
    commands,
    config: () => ({}),
    accountConfig: () => ({ allowFrom: ["42"] }),
    approved: () => [],
    capabilities: () => undefined,
    deliveries: {
      deliver: async (request) => {
        delivered.push(request);
        return params.report ?? { sent: [{ messageId: "m1" }], failed: [], queued: [] };
      },
      covered: () => params.covered ?? [],
    },
    journal: { settle: (key, outcome) => settled.push([key, outcome]) },
    dispatch: () => {
      throw new Error("a command is not dispatched");
    },
    log: silentLogger,
  });
  return { step, handled, delivered, settled };
}

const request = (extra: Partial<DispatchRequest> = {}): DispatchRequest => ({
  message: inbound,
  body: inbound.text,
  routed,
  ...extra,
});

describe("channel commands", () => {
  it("answers through the delivery queue with the message's key, then settles it as replied", async () => {
    const s = setup();
    expect(s.step.take(request({ message: { ...inbound, text: "hello" } }))).toBe(false);
    expect(s.step.take(request())).toBe(true);
    await s.step.settled();
    expect(s.handled).toHaveLength(1);
    expect(s.handled[0]).toMatchObject({ chatType: "direct", sessionKey: "agent:main:main" });
    expect(s.handled[0]!.authorizers.some((a) => a.configured && a.allowed)).toBe(true);
    expect(s.delivered[0]).toMatchObject({
      channel: "telegram",
      inboundKeys: [expect.stringContaining("7")],
      agentId: "main",
      messages: [{ text: "New session started.", target: { replyToId: "7" } }],
    });
    expect(s.settled.map(([, outcome]) => outcome)).toEqual(["replied"]);
  });

  it("a replayed command whose reply is recorded is not run again", async () => {
    const s = setup({
      covered: [
        { deliveryId: "d1", agentId: "main", sessionKey: "agent:main:main", outcome: "replied" },
      ],
    });
    expect(s.step.take(request({ replay: true }))).toBe(true);
    await s.step.settled();
    expect(s.handled).toHaveLength(0);
    expect(s.delivered).toHaveLength(0);
    expect(s.settled.map(([, outcome]) => outcome)).toEqual(["replied"]);
  });

  it("a reply that could not be recorded leaves the message unsettled (answered after a restart)", async () => {
    const s = setup({ report: { sent: [], failed: [], queued: [], unrecorded: true } });
    s.step.take(request());
    await s.step.settled();
    expect(s.settled).toHaveLength(0);
  });

  it("a command for another bot is taken and dropped: not answered, not dispatched", async () => {
    const s = setup();
    const other = { ...inbound, text: "/new@other_bot", selfUsername: "pincer_bot" };
    expect(s.step.take(request({ message: other }))).toBe(true);
    await s.step.settled();
    expect(s.handled).toHaveLength(0);
    expect(s.delivered).toHaveLength(0);
    expect(s.settled.map(([, outcome]) => outcome)).toEqual(["dropped"]);
    // Ours is answered.
    expect(s.step.take(request({ message: { ...other, text: "/new@pincer_bot" } }))).toBe(true);
    await s.step.settled();
    expect(s.handled).toHaveLength(1);
  });

  it("an access group in the channel allowlist authorizes its members' commands", async () => {
    const handled: CommandInput[] = [];
    const step = createChannelCommands({
      commands: {
        recognizes: () => true,
        menu: () => ({ native: "auto", commands: [] }),
        handle: async (input) => {
          handled.push(input);
          return { name: "new", text: "ok", refused: false };
        },
      },
      config: () => ({
        accessGroups: { ops: { type: "message.senders", members: { telegram: ["42"] } } },
      }),
      accountConfig: () => ({ allowFrom: ["accessGroup:ops"] }),
      approved: () => [],
      capabilities: () => undefined,
      deliveries: {
        deliver: async () => ({ sent: [{ messageId: "m1" }], failed: [], queued: [] }),
        covered: () => [],
      },
      journal: { settle: () => {} },
      dispatch: () => {},
      log: silentLogger,
    });
    step.take(request());
    step.take(request({ message: { ...inbound, messageId: "8", sender: { id: "43" } } }));
    await step.settled();
    const allowed = handled.map((input) =>
      input.authorizers.some((a) => a.configured && a.allowed),
    );
    expect(allowed).toEqual([true, false]);
  });
});
