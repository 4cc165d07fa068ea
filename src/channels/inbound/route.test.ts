import { describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { ChannelInbound } from "../types.js";
import { findBroadcastGroup, routeInbound } from "./route.js";

const msg = (extra: Partial<ChannelInbound> = {}): ChannelInbound => ({
  channel: "telegram",
  accountId: "default",
  messageId: "1",
  timestamp: 0,
  sender: { id: "1" },
  peer: { kind: "group", id: "-100" },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
  ...extra,
});
const cfg: OpenClawConfig = {
  agents: { list: [{ id: "main" }, { id: "ops" }, { id: "log" }] },
  bindings: [
    { agentId: "ops", match: { channel: "telegram", peer: { kind: "group", id: "-100" } } },
  ],
};

describe("routing an inbound message", () => {
  it("uses resolveAgentRoute and adds the thread suffix", () => {
    const routed = routeInbound(cfg, msg({ threadId: "77" }));
    expect(routed.route.agentId).toBe("ops");
    expect(routed.targets).toEqual([
      { agentId: "ops", sessionKey: "agent:ops:telegram:group:-100:thread:77" },
    ]);
    expect(routed.broadcast).toBe(false);
  });

  it("does not suffix a peer id that already carries the topic", () => {
    const routed = routeInbound(
      cfg,
      msg({ peer: { kind: "group", id: "-100:topic:5" }, threadId: "5" }),
    );
    expect(routed.targets[0]!.sessionKey).toBe("agent:main:telegram:group:-100:topic:5");
  });

  it("keys a thread with a parent peer by the parent: <parent key>:thread:<id>, bindings on either", () => {
    const discord: OpenClawConfig = {
      agents: { list: [{ id: "main" }, { id: "ops" }, { id: "log" }] },
      bindings: [
        { agentId: "ops", match: { channel: "discord", peer: { kind: "channel", id: "C100" } } },
        { agentId: "log", match: { channel: "discord", peer: { kind: "channel", id: "T7" } } },
      ],
    };
    const thread = (threadId: string) =>
      msg({
        channel: "discord",
        peer: { kind: "channel", id: threadId },
        parentPeer: { kind: "channel", id: "C100" },
        threadId,
      });
    const inherited = routeInbound(discord, thread("T9"));
    expect(inherited.route).toMatchObject({ agentId: "ops", matchedBy: "binding.peer.parent" });
    expect(inherited.targets).toEqual([
      { agentId: "ops", sessionKey: "agent:ops:discord:channel:c100:thread:t9" },
    ]);
    const own = routeInbound(discord, thread("T7"));
    expect(own.route).toMatchObject({ agentId: "log", matchedBy: "binding.peer" });
    expect(own.targets[0]!.sessionKey).toBe("agent:log:discord:channel:c100:thread:t7");
    const broadcast = routeInbound(
      { ...discord, broadcast: { "discord:C100": ["main", "ops"] } as OpenClawConfig["broadcast"] },
      thread("T9"),
    );
    expect(broadcast.targets.map((target) => target.sessionKey)).toEqual([
      "agent:main:discord:channel:c100:thread:t9",
      "agent:ops:discord:channel:c100:thread:t9",
    ]);
  });

  it("fans a broadcast peer out to each agent in its own session", () => {
    const withBroadcast: OpenClawConfig = {
      ...cfg,
      broadcast: {
        strategy: "sequential",
        "telegram:-100": { agents: ["main", "log"], mentionGating: false },
      } as OpenClawConfig["broadcast"],
    };
    const routed = routeInbound(withBroadcast, msg());
    expect(routed).toMatchObject({ broadcast: true, strategy: "sequential", mentionGating: false });
    expect(routed.targets).toEqual([
      { agentId: "main", sessionKey: "agent:main:telegram:group:-100" },
      { agentId: "log", sessionKey: "agent:log:telegram:group:-100" },
    ]);
  });

  it("finds broadcast groups by channel:peer, then by bare peer", () => {
    const bare = { broadcast: { "+1555": ["main", "ops"] } } as OpenClawConfig;
    expect(
      findBroadcastGroup(bare, msg({ channel: "whatsapp", peer: { kind: "direct", id: "+1555" } })),
    ).toEqual({
      agents: ["main", "ops"],
      mentionGating: true,
    });
    expect(findBroadcastGroup(bare, msg())).toBeUndefined();
    expect(findBroadcastGroup({}, msg())).toBeUndefined();
  });
});
