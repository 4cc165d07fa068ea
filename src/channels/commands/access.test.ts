import { describe, expect, it } from "vitest";
import type { AccessGroupsConfig, CommandsConfig } from "../../protocol/config/index.js";
import { channelAuthorizers, decideCommandAccess } from "./access.js";
import type { CommandDefinition } from "./types.js";

const reset: CommandDefinition = {
  name: "reset",
  aliases: [],
  description: "",
  changesState: true,
  run: () => ({ text: "" }),
};
const status: CommandDefinition = { ...reset, name: "status", changesState: false };
const owned: CommandDefinition = { ...reset, name: "config", ownerOnly: true };
const alice = { id: "111", username: "alice" };
const bob = { id: "333" };

function decide(params: {
  commands?: CommandsConfig;
  chatType?: "direct" | "group" | "operator";
  sender?: { id: string; username?: string };
  allowFrom?: unknown[];
  approved?: string[];
  definition?: CommandDefinition;
  accessGroups?: AccessGroupsConfig;
  channel?: string;
}) {
  const chatType = params.chatType ?? "direct";
  const sender = params.sender ?? alice;
  const channel = params.channel ?? "telegram";
  const groups = params.accessGroups ? { accessGroups: params.accessGroups } : {};
  return decideCommandAccess({
    commands: params.commands,
    ...groups,
    channel,
    chatType,
    sender,
    authorizers: channelAuthorizers({
      chatType: chatType === "group" ? "group" : "direct",
      channel,
      ...groups,
      sender,
      allowFrom: params.allowFrom,
      approved: params.approved ?? [],
    }),
    definition: params.definition ?? reset,
  }).allowed;
}

describe("decideCommandAccess", () => {
  it("DMs: a sender on the channel allowlist or approved by pairing; nobody else", () => {
    expect(decide({ allowFrom: ["111"] })).toBe(true);
    expect(decide({ approved: ["111"] })).toBe(true);
    expect(decide({ allowFrom: ["@alice"] })).toBe(true);
    expect(decide({ allowFrom: ["999"] })).toBe(false);
    expect(decide({})).toBe(false);
    expect(decide({ allowFrom: ["*"] })).toBe(true);
  });

  it("groups: anyone addressed may read, only authorized senders change state", () => {
    expect(decide({ chatType: "group", sender: bob, definition: status })).toBe(true);
    expect(decide({ chatType: "group", sender: bob, allowFrom: ["111"] })).toBe(false);
    expect(decide({ chatType: "group", allowFrom: ["111"] })).toBe(true);
  });

  it("commands.allowFrom is the only list when set (channel key over '*')", () => {
    const commands = { allowFrom: { "*": ["333"], telegram: ["111"] } } as CommandsConfig;
    expect(decide({ commands })).toBe(true);
    expect(decide({ commands, sender: bob, allowFrom: ["333"] })).toBe(false);
    const wildcardOnly = { allowFrom: { "*": ["333"] } } as CommandsConfig;
    expect(decide({ commands: wildcardOnly, allowFrom: ["111"] })).toBe(false);
    expect(decide({ commands: wildcardOnly, sender: bob })).toBe(true);
  });

  it("useAccessGroups false lets every sender who reached the agent use them", () => {
    expect(decide({ commands: { useAccessGroups: false }, sender: bob })).toBe(true);
    expect(decide({ commands: { useAccessGroups: true }, sender: bob })).toBe(false);
  });

  it("owners are always authorized; owner-only commands need one ('*' names nobody)", () => {
    expect(decide({ commands: { ownerAllowFrom: ["111"] } })).toBe(true);
    expect(decide({ commands: { ownerAllowFrom: ["111"] }, definition: owned })).toBe(true);
    expect(decide({ allowFrom: ["111"], definition: owned })).toBe(false);
    expect(decide({ commands: { ownerAllowFrom: ["*"] }, definition: owned })).toBe(false);
  });

  it("access groups: members on this channel (or '*') are named; others, other channels, unknown groups are not", () => {
    const accessGroups: AccessGroupsConfig = {
      ops: {
        type: "message.senders",
        members: { telegram: ["111"], "*": ["555"], discord: ["333"] },
      },
      // "*" and nested references inside a group name nobody.
      wide: { type: "message.senders", members: { "*": ["*", "accessGroup:ops"] } },
    };
    const commands = { allowFrom: { telegram: ["accessGroup:ops"] } } as CommandsConfig;
    expect(decide({ commands, accessGroups })).toBe(true);
    expect(decide({ commands, accessGroups, sender: { id: "555" } })).toBe(true);
    expect(decide({ commands, accessGroups, sender: bob })).toBe(false);
    expect(decide({ commands, accessGroups, sender: bob, channel: "discord" })).toBe(false);
    // A username equal to the group's name is not a member.
    expect(decide({ commands, accessGroups, sender: { id: "9", username: "ops" } })).toBe(false);
    const missing = { allowFrom: { telegram: ["accessGroup:nope"] } } as CommandsConfig;
    expect(decide({ commands: missing, accessGroups, sender: { id: "9", username: "nope" } })).toBe(
      false,
    );
    const wide = { allowFrom: { telegram: ["accessGroup:wide"] } } as CommandsConfig;
    expect(decide({ commands: wide, accessGroups, sender: bob })).toBe(false);
    expect(decide({ commands: wide, accessGroups })).toBe(false);
    // useAccessGroups: the channel allowlists name the group.
    expect(decide({ allowFrom: ["accessGroup:ops"], accessGroups })).toBe(true);
    expect(decide({ allowFrom: ["accessGroup:ops"], accessGroups, sender: bob })).toBe(false);
    expect(
      decide({
        commands: { ownerAllowFrom: ["accessGroup:ops"] },
        accessGroups,
        definition: owned,
      }),
    ).toBe(true);
  });

  it("an operator's chat.send is authorized", () => {
    expect(decide({ chatType: "operator", sender: bob, definition: owned })).toBe(true);
  });
});
