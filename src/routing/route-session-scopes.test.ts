// Session scoping in resolveAgentRoute (cases 1–7 and 25–28 as OpenClaw answers them, plus precedence
// and case rules): dmScope, identity links, groupScope, binding/input overrides, mainKey, Signal/Matrix ids,
// unknown ids. Each case also checks explainAgentRoute agrees.
import { describeRouteTable, type RouteCase } from "../../test/helpers/route-table.js";
import type { RouteBinding, RouteConfig } from "./types.js";

type Case = RouteCase;

const links = { alice: ["telegram:111111111", "discord:222222222222222222"] };
const direct = (id: string) => ({ kind: "direct", id });
const channelPeer = (id: string | bigint) => ({ kind: "channel", id });
const dm = direct;
const wa = (agentId: string): RouteBinding => ({ agentId, match: { channel: "whatsapp" } });
const cfgOf = (...bindings: RouteBinding[]): RouteConfig => ({ bindings });

const CASES: Case[] = [
  [
    "1 empty config: DM collapses to the main session",
    { cfg: {}, channel: "whatsapp", accountId: null, peer: direct("+15551234567") },
    {
      agentId: "main",
      channel: "whatsapp",
      accountId: "default",
      dmScope: "main",
      groupScope: "per-group",
      sessionKey: "agent:main:main",
      mainSessionKey: "agent:main:main",
      lastRoutePolicy: "main",
      matchedBy: "default",
    },
  ],
  [
    "2 dmScope per-peer",
    {
      cfg: { session: { dmScope: "per-peer" } },
      channel: "whatsapp",
      peer: direct("+15551234567"),
    },
    {
      agentId: "main",
      matchedBy: "default",
      dmScope: "per-peer",
      sessionKey: "agent:main:direct:+15551234567",
      mainSessionKey: "agent:main:main",
      lastRoutePolicy: "session",
    },
  ],
  [
    "3 per-channel-peer, channel case and dm kind normalized",
    {
      cfg: { session: { dmScope: "per-channel-peer" } },
      channel: "WhatsApp",
      peer: { kind: "dm", id: "+15551234567" },
    },
    {
      agentId: "main",
      channel: "whatsapp",
      matchedBy: "default",
      sessionKey: "agent:main:whatsapp:direct:+15551234567",
    },
  ],
  [
    "4 per-account-channel-peer with account Tasks",
    {
      cfg: { session: { dmScope: "per-account-channel-peer" } },
      channel: "telegram",
      accountId: "Tasks",
      peer: direct("7550356539"),
    },
    {
      agentId: "main",
      accountId: "tasks",
      matchedBy: "default",
      sessionKey: "agent:main:telegram:tasks:direct:7550356539",
    },
  ],
  [
    "5 per-account-channel-peer without account uses default",
    {
      cfg: { session: { dmScope: "per-account-channel-peer" } },
      channel: "telegram",
      accountId: null,
      peer: direct("7550356539"),
    },
    {
      agentId: "main",
      accountId: "default",
      matchedBy: "default",
      sessionKey: "agent:main:telegram:default:direct:7550356539",
    },
  ],
  [
    "6 identityLinks with per-peer",
    {
      cfg: { session: { dmScope: "per-peer", identityLinks: links } },
      channel: "telegram",
      peer: direct("111111111"),
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:direct:alice" },
  ],
  [
    "7 identityLinks with per-channel-peer",
    {
      cfg: { session: { dmScope: "per-channel-peer", identityLinks: links } },
      channel: "discord",
      peer: direct("222222222222222222"),
    },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:discord:direct:alice" },
  ],
  [
    "25 groupScope main collapses groups",
    {
      cfg: { session: { groupScope: "main" } },
      channel: "telegram",
      peer: { kind: "group", id: "-100123" },
    },
    {
      agentId: "main",
      matchedBy: "default",
      groupScope: "main",
      sessionKey: "agent:main:main",
      lastRoutePolicy: "main",
    },
  ],
  [
    "26 binding session.dmScope applies when the binding matches",
    {
      cfg: {
        bindings: [
          {
            agentId: "main",
            match: { channel: "telegram", peer: direct("42") },
            session: { dmScope: "per-channel-peer" },
          },
        ],
      },
      channel: "telegram",
      peer: direct("42"),
    },
    {
      agentId: "main",
      matchedBy: "binding.peer",
      dmScope: "per-channel-peer",
      sessionKey: "agent:main:telegram:direct:42",
    },
  ],
  [
    "27 session.mainKey is lowercased into both keys",
    { cfg: { session: { mainKey: "Work" } }, channel: "whatsapp", peer: direct("+1") },
    {
      agentId: "main",
      matchedBy: "default",
      sessionKey: "agent:main:work",
      mainSessionKey: "agent:main:work",
    },
  ],
  [
    "28 bigint peer ids are stringified",
    { cfg: {}, channel: "discord", peer: channelPeer(1468834856187203680n) },
    {
      agentId: "main",
      matchedBy: "default",
      sessionKey: "agent:main:discord:channel:1468834856187203680",
    },
  ],
  [
    "Signal group ids keep their case",
    {
      cfg: { agents: { list: [{ id: "arjun" }] } },
      channel: "signal",
      peer: { kind: "group", id: "mb+09B3md7Tnu0/bLVJaOJUxtc/Zig83EwXvh3zmu3w=" },
    },
    {
      agentId: "arjun",
      matchedBy: "default",
      sessionKey: "agent:arjun:signal:group:mb+09B3md7Tnu0/bLVJaOJUxtc/Zig83EwXvh3zmu3w=",
    },
  ],
  [
    "Matrix room ids keep their case",
    {
      cfg: { agents: { list: [{ id: "a" }] } },
      channel: "matrix",
      peer: { kind: "channel", id: "!RoomAbC:Matrix.org" },
    },
    {
      agentId: "a",
      matchedBy: "default",
      sessionKey: "agent:a:matrix:channel:!RoomAbC:Matrix.org",
    },
  ],
  [
    "empty channel keys as unknown",
    { cfg: {}, channel: "  ", peer: { kind: "group", id: "G" } },
    {
      agentId: "main",
      channel: "",
      matchedBy: "default",
      sessionKey: "agent:main:unknown:group:g",
    },
  ],
  [
    "empty peer id keys as unknown under per-peer",
    { cfg: { session: { dmScope: "per-peer" } }, channel: "whatsapp", peer: dm("") },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:direct:unknown" },
  ],
  [
    "input dmScope overrides session.dmScope",
    {
      cfg: { session: { dmScope: "per-peer" } },
      channel: "whatsapp",
      peer: dm("+1"),
      dmScope: "per-channel-peer",
    },
    {
      agentId: "main",
      dmScope: "per-channel-peer",
      matchedBy: "default",
      sessionKey: "agent:main:whatsapp:direct:+1",
    },
  ],
  [
    "matched binding session.dmScope overrides the input dmScope",
    {
      cfg: cfgOf({ ...wa("b"), session: { dmScope: "per-peer" } }),
      channel: "whatsapp",
      peer: dm("+1"),
      dmScope: "main",
    },
    {
      agentId: "b",
      dmScope: "per-peer",
      matchedBy: "binding.account",
      sessionKey: "agent:b:direct:+1",
    },
  ],
  [
    "binding session.groupScope main collapses its groups",
    {
      cfg: cfgOf({ ...wa("b"), session: { groupScope: "main" } }),
      channel: "whatsapp",
      peer: { kind: "group", id: "G" },
    },
    { agentId: "b", groupScope: "main", matchedBy: "binding.account", sessionKey: "agent:b:main" },
  ],
  [
    "input groupScope overrides session.groupScope",
    {
      cfg: { session: { groupScope: "main" } },
      channel: "whatsapp",
      peer: { kind: "group", id: "G" },
      groupScope: "per-group",
    },
    {
      agentId: "main",
      groupScope: "per-group",
      matchedBy: "default",
      sessionKey: "agent:main:whatsapp:group:g",
    },
  ],
  [
    "unknown config dmScope is ignored",
    { cfg: { session: { dmScope: "per-planet" } }, channel: "whatsapp", peer: dm("+1") },
    { agentId: "main", dmScope: "main", matchedBy: "default", sessionKey: "agent:main:main" },
  ],
  [
    "DM peer ids are lowercased in per-peer keys",
    { cfg: { session: { dmScope: "per-peer" } }, channel: "slack", peer: dm("U0ABC") },
    { agentId: "main", matchedBy: "default", sessionKey: "agent:main:direct:u0abc" },
  ],
  [
    "no peer at all uses the main session",
    { cfg: { session: { dmScope: "per-peer" } }, channel: "webchat" },
    {
      agentId: "main",
      matchedBy: "default",
      sessionKey: "agent:main:main",
      lastRoutePolicy: "main",
    },
  ],
];

describeRouteTable("resolveAgentRoute: session scopes", CASES);
