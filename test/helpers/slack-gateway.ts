// A real gateway (port 0, temp state, the built-in adapter loaders) with Slack accounts against the
// fake Slack: `default` in socket mode (team T1) unless a test gives its own channel config, plus
// helpers to say things as Slack users and read what the bot posted.
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import {
  type FakeSlack,
  type FakeSlackBot,
  type FakeSlackCall,
  startFakeSlack,
} from "./fake-slack.js";
import { createGatewaySandbox, type GatewaySandbox } from "./gateway-sandbox.js";

/** The socket-mode bot of the default account. */
export const BOT: FakeSlackBot = {
  botToken: "xoxb-main-1",
  appToken: "xapp-main-1",
  userId: "UBOT1",
  botId: "BBOT1",
  user: "pincer",
  team: "Acme",
  teamId: "T1",
};

/** A second bot, for http mode (no app token). */
export const HTTP_BOT: FakeSlackBot = {
  botToken: "xoxb-http-2",
  userId: "UBOT2",
  botId: "BBOT2",
  user: "pincer-http",
  team: "Acme",
  teamId: "T1",
};

/** A started setup. */
export interface SlackGateway {
  box: GatewaySandbox;
  slack: FakeSlack;
}

/** Starts the fake Slack and a gateway whose `channels.slack` is `slackConfig(apiUrl)`. */
export async function startSlackGateway(params: {
  slackConfig: (apiUrl: string) => Record<string, unknown>;
  agents?: NonNullable<OpenClawConfig["agents"]>["list"];
  bindings?: OpenClawConfig["bindings"];
  extra?: Partial<OpenClawConfig>;
  /** App tokens whose socket must be up before this resolves (default the main bot's). */
  waitFor?: string[];
  /** More bots the fake knows (besides BOT and HTTP_BOT). */
  bots?: FakeSlackBot[];
}): Promise<SlackGateway> {
  const slack = await startFakeSlack();
  for (const bot of [BOT, HTTP_BOT, ...(params.bots ?? [])]) slack.addBot(bot);
  const box = await createGatewaySandbox({
    config: () => ({
      ...params.extra,
      channels: { slack: params.slackConfig(slack.apiUrl) } as OpenClawConfig["channels"],
      ...(params.agents ? { agents: { list: params.agents } } : {}),
      ...(params.bindings ? { bindings: params.bindings } : {}),
    }),
  });
  for (const token of params.waitFor ?? [BOT.appToken!]) await slack.waitForSocket(token);
  return { box, slack };
}

/** Socket-mode account settings of {@link BOT} against the fake. */
export function socketAccount(apiUrl: string, extra: Record<string, unknown> = {}) {
  return { botToken: BOT.botToken, appToken: BOT.appToken, apiUrl, ...extra };
}

/** A Slack `message` event. */
export function slackMessage(params: {
  channel: string;
  channelType: "channel" | "group" | "im" | "mpim";
  user?: string;
  text: string;
  ts: string;
  threadTs?: string;
  extra?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    type: "message",
    channel: params.channel,
    channel_type: params.channelType,
    user: params.user ?? "UALICE",
    text: params.text,
    ts: params.ts,
    ...(params.threadTs ? { thread_ts: params.threadTs } : {}),
    team: "T1",
    ...params.extra,
  };
}

/** `chat.postMessage` calls to `channel`. */
export function postsTo(slack: FakeSlack, channel: string): FakeSlackCall[] {
  return slack.callsOf("chat.postMessage").filter((c) => c.params.channel === channel);
}

/** Resolves with the `nth` (1-based) `chat.postMessage` to `channel` (10 s bound). */
export async function waitForPost(
  slack: FakeSlack,
  channel: string,
  nth = 1,
): Promise<FakeSlackCall> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = postsTo(slack, channel)[nth - 1];
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no post #${nth} to ${channel}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
