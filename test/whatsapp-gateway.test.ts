// WhatsApp (Web transport) end to end through the real gateway (port 0, temp state, the fake model)
// with the fake socket injected through the adapter's options: two numbers on one gateway
// (`personal` → home, `biz` → work), a DM routed by its E.164 peer binding above the account-wide
// ones, per-account DM allowlists in any number spelling, a family group bound to an agent with
// mention patterns, quoted replies, a broadcast group (parallel and sequential), the reply always
// from the account the message came in on, `message send --account`, and terminal states in
// `channels status`.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtinChannelLoaders } from "../src/channels/builtin.js";
import { createWhatsAppAdapter } from "../src/channels/whatsapp/index.js";
import { WA_DISCONNECT } from "../src/channels/whatsapp/web/socket-seam.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  dmText,
  FakeWhatsApp,
  seedLinkedCreds,
  waMessage,
} from "./helpers/fake-whatsapp-socket.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const PERSONAL = "+15550001111";
const BIZ = "+15550002222";
const ALICE = "+15551230001"; // allowed on personal
const CAROL = "+15551230002"; // allowed on biz
const VIP = "+15557770000"; // bound to agent vip by E.164
const FAMILY = "120363000000000001@g.us";
const TEAM = "120363000000000002@g.us";
const jid = (number: string) => `${number.slice(1)}@s.whatsapp.net`;

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

interface Started {
  sandbox: GatewaySandbox;
  fake: FakeWhatsApp;
}

async function start(extra: Partial<OpenClawConfig> = {}): Promise<Started> {
  const fake = new FakeWhatsApp();
  const auth = makeTempDir("pincer-wa-auth-");
  seedLinkedCreds(join(auth, "personal"), PERSONAL, "Personal");
  seedLinkedCreds(join(auth, "biz"), BIZ, "Biz");
  const workspace = (name: string) => makeTempDir(`pincer-wa-${name}-`);
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        whatsapp: {
          accounts: {
            personal: {
              authDir: join(auth, "personal"),
              dmPolicy: "allowlist",
              allowFrom: ["+1 555 123 0001", "1 (555) 777-0000"],
              groups: { [FAMILY]: {}, [TEAM]: {} },
            },
            biz: { authDir: join(auth, "biz"), dmPolicy: "allowlist", allowFrom: ["15551230002"] },
          },
        },
      } as OpenClawConfig["channels"],
      agents: {
        list: [
          { id: "main" },
          { id: "home", workspace: workspace("home") },
          { id: "work", workspace: workspace("work") },
          { id: "vip", workspace: workspace("vip") },
          {
            id: "family",
            workspace: workspace("family"),
            groupChat: { mentionPatterns: ["\\bclaw\\b"] },
            tools: { deny: ["exec"] },
          },
          { id: "a", workspace: workspace("a") },
          { id: "b", workspace: workspace("b") },
        ],
      },
      bindings: [
        { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
        { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
        {
          agentId: "vip",
          match: { channel: "whatsapp", accountId: "*", peer: { kind: "direct", id: VIP } },
        },
        {
          agentId: "family",
          match: {
            channel: "whatsapp",
            accountId: "personal",
            peer: { kind: "group", id: FAMILY },
          },
        },
      ],
      ...extra,
    }),
    options: {
      channels: {
        loaders: {
          ...builtinChannelLoaders(),
          whatsapp: async () =>
            createWhatsAppAdapter({ web: { socketFactory: fake.factory, linkPollMs: 20 } }),
        },
        timing: { retry: { minDelayMs: 5, jitter: 0 }, restart: { initialMs: 10, jitter: 0 } },
      },
    },
  });
  await fake.waitUntil(
    () => fake.latest("personal") && fake.latest("biz") && fake.sockets.length === 2,
    "both accounts' sockets",
  );
  return { sandbox: box, fake };
}

function transcript(sandbox: GatewaySandbox, agentId: string, sessionKey: string): string {
  const read = sandbox.gw.core.runtime.stores.forAgent(agentId).readTranscript(sessionKey);
  return JSON.stringify(read?.entries ?? []);
}

const texts = (fake: FakeWhatsApp, account: string) =>
  fake.sendsOf(account).map((s) => [s.jid, (s.content as { text?: string }).text]);

async function channelsStatus(sandbox: GatewaySandbox): Promise<Loose> {
  const client = await sandbox.connect();
  try {
    return payloadOf(await client.request("channels.status", {}));
  } finally {
    client.close();
  }
}

describe("WhatsApp through the gateway", () => {
  it("two numbers, two agents: each DM answered by its account's agent, from that account", async () => {
    const { sandbox, fake } = await start();
    sandbox.fake.text("Hi **Alice**");
    const fromAlice = dmText(ALICE, "hello home");
    fake.latest("personal")!.deliver(fromAlice);
    await fake.waitUntil(() => fake.sendsOf("personal").length === 1, "the personal reply");
    const reply = fake.sendsOf("personal")[0]!;
    expect(reply).toMatchObject({ jid: jid(ALICE), content: { text: "Hi *Alice*" } });
    expect(transcript(sandbox, "home", `agent:home:main`)).toContain("hello home");

    sandbox.fake.text("Work reply");
    fake.latest("biz")!.deliver(dmText(CAROL, "hello work"));
    await fake.waitUntil(() => fake.sendsOf("biz").length === 1, "the biz reply");
    expect(texts(fake, "biz")).toEqual([[jid(CAROL), "Work reply"]]);
    expect(transcript(sandbox, "work", `agent:work:main`)).toContain("hello work");
    expect(fake.sendsOf("personal")).toHaveLength(1);
  });

  it("the E.164 peer binding wins over the account binding; allowlists are per account", async () => {
    const { sandbox, fake } = await start();
    // Carol is allowed on biz only: on personal she is dropped (no pairing code, no run).
    fake.latest("personal")!.deliver(dmText(CAROL, "wrong number"));
    sandbox.fake.text("VIP desk");
    fake.latest("personal")!.deliver(dmText(VIP, "I am important"));
    await fake.waitUntil(() => fake.sendsOf("personal").length === 1, "the vip reply");
    expect(texts(fake, "personal")).toEqual([[jid(VIP), "VIP desk"]]);
    expect(transcript(sandbox, "vip", "agent:vip:main")).toContain("I am important");
    expect(transcript(sandbox, "home", "agent:home:main")).not.toContain("wrong number");
    expect(sandbox.fake.chatRequests).toHaveLength(1);
  });

  it("a family group: mention patterns and native mentions trigger, chatter is context, quotes reach the model", async () => {
    const { sandbox, fake } = await start();
    const socket = fake.latest("personal")!;
    const member = "15552220000@s.whatsapp.net";
    socket.deliver(
      waMessage({
        chat: FAMILY,
        participant: member,
        pushName: "Dan",
        message: { conversation: "dinner at 7" },
      }),
    );
    sandbox.fake.text("Noted");
    socket.deliver(
      waMessage({
        chat: FAMILY,
        participant: member,
        pushName: "Dan",
        message: {
          extendedTextMessage: {
            text: "claw, can you remind us?",
            contextInfo: {
              stanzaId: "Q1",
              participant: "15553330000@s.whatsapp.net",
              quotedMessage: { conversation: "bring dessert" },
            },
          },
        },
      }),
    );
    await fake.waitUntil(() => socket.sends.length === 1, "the pattern reply");
    expect(socket.sends[0]).toMatchObject({ jid: FAMILY, content: { text: "Noted" } });
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain("dinner at 7");
    expect(prompt).toContain("[Replying to +15553330000: bring dessert]");
    expect(prompt).toContain("claw, can you remind us?");
    sandbox.fake.text("Yes?");
    socket.deliver(
      waMessage({
        chat: FAMILY,
        participant: member,
        message: {
          extendedTextMessage: {
            text: "@Personal ping",
            contextInfo: { mentionedJid: [jid(PERSONAL)] },
          },
        },
      }),
    );
    await fake.waitUntil(() => socket.sends.length === 2, "the native-mention reply");
    expect(sandbox.fake.chatRequests).toHaveLength(2);
    expect(transcript(sandbox, "family", `agent:family:whatsapp:group:${FAMILY}`)).toContain(
      "ping",
    );
  });

  it.each(["parallel", "sequential"] as const)(
    "a broadcast group (%s) fans one mention out to each agent, replies from the same account",
    async (strategy) => {
      const { sandbox, fake } = await start({
        broadcast: { strategy, [`whatsapp:${TEAM}`]: ["a", "b"] },
      } as Partial<OpenClawConfig>);
      sandbox.fake.text("from one");
      sandbox.fake.text("from two");
      fake.latest("personal")!.deliver(
        waMessage({
          chat: TEAM,
          participant: "15552220000@s.whatsapp.net",
          message: {
            extendedTextMessage: { text: "team?", contextInfo: { mentionedJid: [jid(PERSONAL)] } },
          },
        }),
      );
      await fake.waitUntil(() => fake.sendsOf("personal").length === 2, "both broadcast replies");
      expect(texts(fake, "personal").map(([to]) => to)).toEqual([TEAM, TEAM]);
      expect(
        texts(fake, "personal")
          .map(([, text]) => text)
          .sort(),
      ).toEqual(["from one", "from two"]);
      expect(fake.sendsOf("biz")).toHaveLength(0);
      expect(transcript(sandbox, "a", `agent:a:whatsapp:group:${TEAM}`)).toContain("team?");
      expect(transcript(sandbox, "b", `agent:b:whatsapp:group:${TEAM}`)).toContain("team?");
    },
  );

  it("message send --channel whatsapp --account biz --to <any E.164 spelling> goes out from biz", async () => {
    const { sandbox, fake } = await start();
    const cli = createCliSandbox(sandbox.env);
    const argv = ["message", "send", "--channel", "whatsapp", "--account", "biz"];
    const target = ["--url", sandbox.gw.url, "--token", TEST_TOKEN];
    const sent = await cli.run([...argv, "--to", "+1 555 123 0001", "-m", "**ping**", ...target]);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain("sent via whatsapp/biz");
    expect(texts(fake, "biz")).toEqual([[jid(ALICE), "*ping*"]]);
    expect(fake.sendsOf("personal")).toHaveLength(0);
    const bad = await cli.run([...argv, "--to", "not-a-number", "-m", "x", ...target]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("not a phone number");
  });

  it("logged out is terminal in channels status with what to do; a transient close reconnects", async () => {
    const { sandbox, fake } = await start();
    fake.latest("biz")!.close(WA_DISCONNECT.loggedOut);
    fake.latest("personal")!.close(WA_DISCONNECT.connectionLost);
    await fake.waitUntil(() => fake.socketsOf("personal").length === 2, "the personal reconnect");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.socketsOf("biz")).toHaveLength(1);
    const status = await channelsStatus(sandbox);
    const accounts = status.channelAccounts.whatsapp as Loose[];
    const biz = accounts.find((a) => a.accountId === "biz")!;
    expect(biz).toMatchObject({
      connected: false,
      lastError: "logged out: run pincer channels login --channel whatsapp --account biz",
    });
    // The personal account came back on its own: connected again, one restart counted.
    let personal: Loose | undefined;
    for (let i = 0; i < 100 && personal?.connected !== true; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = (await channelsStatus(sandbox)).channelAccounts.whatsapp as Loose[];
      personal = again.find((a) => a.accountId === "personal");
    }
    expect(personal).toMatchObject({ connected: true, restarts: 1 });
  });
});
