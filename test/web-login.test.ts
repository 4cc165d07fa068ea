// web.login.start / web.login.wait / channels.logout over the real gateway (port 0, real WS
// client), WhatsApp faked at the socket seam: the account's running session is stopped while the
// login has its own open, the QR comes as an SVG data URL plus its raw text, a rotated QR comes
// back from wait, and once linked the gateway starts the account again. `pincer channels login`
// against a running gateway drives these methods and never opens a session of its own.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelAdapter } from "../src/channels/types.js";
import { createWhatsAppAdapter } from "../src/channels/whatsapp/index.js";
import { createWhatsAppLogin } from "../src/channels/whatsapp/web/linker.js";
import { runLogin } from "../src/cli/channels/login.js";
import { runLogout } from "../src/cli/channels/logout.js";
import { capturingContext } from "./helpers/fake-process-io.js";
import {
  createFakeWhatsAppLogin,
  type FakeWhatsAppLogin,
  waitUntil,
} from "./helpers/fake-whatsapp-login.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";

const JID = "15551234567:7@s.whatsapp.net";

/** A WhatsApp adapter whose accounts run in memory and whose login talks to `fake`. */
function fakeWhatsApp(fake: FakeWhatsAppLogin): { memory: MemoryChannel; adapter: ChannelAdapter } {
  const memory = createMemoryChannel({ id: "whatsapp" });
  return {
    memory,
    adapter: { ...memory.adapter, login: createWhatsAppLogin({ createSocket: fake.factory }) },
  };
}

describe("web.login over the gateway", () => {
  let box: GatewaySandbox;
  let memory: MemoryChannel;
  const fake = createFakeWhatsAppLogin();
  beforeAll(async () => {
    const whatsapp = fakeWhatsApp(fake);
    memory = whatsapp.memory;
    box = await createGatewaySandbox({
      config: () => ({ channels: { whatsapp: { accounts: { personal: {}, biz: {} } } } }),
      options: { channels: { loaders: { whatsapp: async () => whatsapp.adapter } } },
    });
    await memory.waitForAccount("personal");
  });
  afterAll(async () => box?.close());

  it("links an account: data URL QR, rotated QR from wait, then connected and the account started", async () => {
    const client = await box.connect();
    expect(memory.starts.personal).toBe(1);
    const started = client.request("web.login.start", { accountId: "personal", timeoutMs: 10_000 });
    const first = await fake.socket(0);
    // The gateway's own session of the account is stopped while the login's is open.
    expect(memory.running()).not.toContain("personal");
    expect(memory.running()).toContain("biz");
    first.qr("2@QR-ONE");
    const start = await started;
    expect(start.ok).toBe(true);
    const startPayload = payloadOf(start);
    expect(startPayload).toMatchObject({ state: "pending", connected: false, qr: "2@QR-ONE" });
    expect(startPayload.qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(startPayload.qrDataUrl.split(",")[1], "base64").toString("utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/);
    expect(startPayload.message).toContain("Linked devices");

    const rotated = client.request("web.login.wait", { accountId: "personal", timeoutMs: 10_000 });
    first.qr("2@QR-TWO");
    expect(payloadOf(await rotated)).toMatchObject({ state: "pending", qr: "2@QR-TWO" });

    const linked = client.request("web.login.wait", { accountId: "personal", timeoutMs: 10_000 });
    first.scanned(JID);
    (await fake.socket(1)).open();
    const done = payloadOf(await linked);
    expect(done).toMatchObject({ state: "linked", connected: true, e164: "+15551234567" });
    expect(done.message).toContain("the gateway started account personal");
    await memory.waitForAccount("personal");
    expect(memory.starts.personal).toBe(2);
    expect(
      existsSync(join(box.stateDir, "credentials", "whatsapp", "personal", "creds.json")),
    ).toBe(true);
    client.close();
  });

  it("needs operator.admin", async () => {
    const client = await box.connect({ scopes: ["operator.read", "operator.write"] });
    for (const method of ["web.login.start", "web.login.wait"]) {
      const res = await client.request(method, { accountId: "biz" });
      expect(res.ok, method).toBe(false);
      expect((res.error as { message: string }).message).toBe("missing scope: operator.admin");
    }
    const logout = await client.request("channels.logout", {
      channel: "whatsapp",
      accountId: "biz",
    });
    expect((logout.error as { message: string }).message).toBe("missing scope: operator.admin");
    client.close();
  });

  it("pincer channels login goes through the running gateway (no second session)", async () => {
    const cliFake = createFakeWhatsAppLogin();
    const cliWhatsApp = fakeWhatsApp(cliFake);
    const { ctx, out } = capturingContext({ env: box.env });
    const opts = { channel: "whatsapp", account: "biz", url: box.gw.url, token: TEST_TOKEN };
    const login = runLogin(
      ctx,
      { args: [], opts: opts as never },
      { loaders: { whatsapp: async () => cliWhatsApp.adapter } },
    );
    const socket = await fake.socket(2);
    socket.qr("2@BIZ-QR");
    await waitUntil(() => out().includes("(QR 1;"), "the QR drawn from the gateway");
    expect(out()).toContain("via the gateway at ws://");
    socket.scanned("15550001111:2@s.whatsapp.net");
    (await fake.socket(3)).open();
    expect(await login).toBe(0);
    expect(out()).toContain("Linked +15550001111 as account biz");
    expect(cliFake.sockets).toHaveLength(0);

    // Logout through the gateway too: its session tells WhatsApp, then the auth dir goes.
    const authDir = join(box.stateDir, "credentials", "whatsapp", "biz");
    const logoutFake = fake.sockets.length;
    const loggedOut = runLogout(
      ctx,
      { args: [], opts: opts as never },
      { loaders: { whatsapp: async () => cliWhatsApp.adapter } },
    );
    (await fake.socket(logoutFake)).open();
    expect(await loggedOut).toBe(0);
    expect(fake.sockets[logoutFake]?.loggedOut).toBe(true);
    expect(existsSync(authDir)).toBe(false);
    expect(existsSync(join(box.stateDir, "credentials", "whatsapp", "personal"))).toBe(true);
    expect(cliFake.sockets).toHaveLength(0);
  });

  it("channels.logout of an account never linked says so; an unknown account is refused", async () => {
    const client = await box.connect();
    mkdirSync(join(box.stateDir, "credentials"), { recursive: true });
    writeFileSync(join(box.stateDir, "credentials", "keep.json"), "{}");
    const never = await client.request("channels.logout", {
      channel: "whatsapp",
      accountId: "biz",
    });
    expect(payloadOf(never)).toMatchObject({ state: "never-linked", cleared: false });
    const unknown = await client.request("web.login.start", { accountId: "nobody" });
    expect(unknown.ok).toBe(false);
    expect((unknown.error as { message: string }).message).toContain(
      'account "nobody" is not configured for whatsapp',
    );
    expect(existsSync(join(box.stateDir, "credentials", "keep.json"))).toBe(true);
    client.close();
  });
});

describe("web.login with the WhatsApp adapter itself", () => {
  it("the linked account comes online without a restart (same socket factory)", async () => {
    const fake = createFakeWhatsAppLogin();
    const box = await createGatewaySandbox({
      config: () => ({ channels: { whatsapp: { accounts: { solo: {} } } } }),
      options: {
        channels: {
          loaders: {
            whatsapp: async () =>
              createWhatsAppAdapter({ web: { socketFactory: fake.factory, linkPollMs: 60_000 } }),
          },
        },
      },
    });
    try {
      const client = await box.connect();
      const status = async () =>
        payloadOf(await client.request("channels.status", {})).channelAccounts.whatsapp[0];
      /** The account's status once `check` holds (polled, up to 2 s). */
      const statusWhen = async (check: (account: Record<string, unknown>) => boolean) => {
        let account = await status();
        for (let i = 0; i < 200 && !check(account); i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          account = await status();
        }
        return account;
      };
      const unlinked = await statusWhen((a) => typeof a.lastError === "string");
      expect(unlinked.lastError).toContain("not linked");
      expect(fake.sockets).toHaveLength(0);
      const started = client.request("web.login.start", { timeoutMs: 10_000 });
      (await fake.socket(0)).qr("2@SOLO");
      expect(payloadOf(await started).qr).toBe("2@SOLO");
      const linked = client.request("web.login.wait", { timeoutMs: 10_000 });
      fake.sockets[0]?.scanned("15557654321:3@s.whatsapp.net");
      (await fake.socket(1)).open();
      expect(payloadOf(await linked)).toMatchObject({ state: "linked", e164: "+15557654321" });
      // The gateway's own session of the account, opened right after the link.
      const own = await fake.socket(2);
      expect(own.hasCreds).toBe(true);
      own.open();
      expect((await statusWhen((a) => a.connected === true)).connected).toBe(true);
      client.close();
    } finally {
      await box.close();
    }
  });
});
