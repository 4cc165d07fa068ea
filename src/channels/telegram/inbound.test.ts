// The normalized Telegram peers route the way the routing tables expect: a forum topic gets its own
// `:topic:<id>` session key and still matches a binding on its base group; channel posts are channels.
import { describe, expect, it } from "vitest";
import { groupMessage, topicMessage } from "../../../test/helpers/fake-telegram-updates.js";
import { resolveAgentRoute } from "../../routing/index.js";
import { toChannelInbound } from "./inbound.js";
import { createTelegramUpdateParser } from "./update-schema.js";

const BOT = { id: "9001", username: "pincer_bot" };
const parse = createTelegramUpdateParser();

function inboundOf(update: Record<string, unknown>) {
  const conversion = toChannelInbound({
    update: { update_id: 1, ...update },
    accountId: "default",
    bot: BOT,
    parse,
  });
  if (conversion.kind !== "inbound") throw new Error(`no inbound: ${JSON.stringify(conversion)}`);
  return conversion.inbound;
}

describe("telegram inbound → routing", () => {
  it("a forum topic gets its own session key and matches a binding on the base group", () => {
    const inbound = inboundOf({
      message: topicMessage({ text: "x", chatId: -100123, topicId: 42 }),
    });
    const cfg = {
      bindings: [
        {
          agentId: "support",
          match: { channel: "telegram", peer: { kind: "group", id: "-100123" } },
        },
      ],
      agents: { list: [{ id: "main" }, { id: "support" }] },
    };
    const route = resolveAgentRoute({
      cfg: cfg as never,
      channel: inbound.channel,
      accountId: inbound.accountId,
      peer: inbound.peer,
      parentPeer: inbound.parentPeer ?? null,
    });
    expect(route.sessionKey).toBe("agent:support:telegram:group:-100123:topic:42");
    expect(route.matchedBy).toBe("binding.peer.parent");
  });

  it("a plain group message keys on the group; a channel post is a channel peer", () => {
    const group = inboundOf({ message: groupMessage({ text: "x", chatId: -100 }) });
    const route = resolveAgentRoute({ cfg: {} as never, channel: "telegram", peer: group.peer });
    expect(route.sessionKey).toBe("agent:main:telegram:group:-100");
    const post = inboundOf({
      channel_post: {
        message_id: 3,
        date: 1,
        chat: { id: -200, type: "channel", title: "News" },
        text: "post",
      },
    });
    expect(post.peer).toEqual({ kind: "channel", id: "-200" });
    expect(post.sender).toEqual({ id: "-200", name: "News" });
  });

  it("ignores updates without a new message", () => {
    const edited = { update_id: 2, edited_message: groupMessage({ text: "x" }) };
    expect(toChannelInbound({ update: edited, accountId: "default", bot: BOT, parse })).toEqual({
      kind: "ignored",
    });
  });
});
