// The Channels page in headless Chromium against a real gateway: with the fake Telegram Bot API, an
// unknown DM sender's pairing request is approved on the page and the sender's next DM is answered;
// Probe shows who the bot is. With WhatsApp faked at the socket seam, Link (QR) shows the gateway's
// QR image and ends linked.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelAdapter } from "../src/channels/types.js";
import { createWhatsAppLogin } from "../src/channels/whatsapp/web/linker.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  buildAdminUi,
  launchBrowser,
  openAdminPage,
  removeUi,
  SKIP_NOTICE,
  screenshots,
} from "./helpers/control-ui-admin.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { createFakeWhatsAppLogin } from "./helpers/fake-whatsapp-login.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";
import { createMemoryChannel } from "./helpers/memory-channel.js";

if (SKIP_NOTICE) console.warn(`\n${SKIP_NOTICE}\n`);
const BOT_TOKEN = "111:main-token";

describe.skipIf(SKIP_NOTICE !== undefined)("Control UI: Channels", () => {
  let browser: Browser;
  let uiDir: string;

  beforeAll(async () => {
    uiDir = await buildAdminUi();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    removeUi(uiDir);
  });

  describe("Telegram", () => {
    let box: GatewaySandbox;
    let telegram: FakeTelegram;
    let page: Page;

    beforeAll(async () => {
      telegram = await startFakeTelegram();
      telegram.addBot(BOT_TOKEN, { id: 111000, username: "pincer_main_bot" });
      box = await createGatewaySandbox({
        config: () => ({
          channels: {
            telegram: { apiRoot: telegram.apiRoot, accounts: { default: { botToken: BOT_TOKEN } } },
          } as OpenClawConfig["channels"],
        }),
        options: { uiDir },
      });
      await telegram.waitForCall("getUpdates", (c) => c.token === BOT_TOKEN);
      page = await openAdminPage({
        browser,
        gatewayUrl: box.gw.url,
        token: TEST_TOKEN,
        page: "channels",
      });
    }, 60_000);
    afterAll(async () => {
      await page?.close();
      await box?.close();
      await telegram?.close();
    });

    it("approves a pending Telegram pairing request and the sender's next DM is answered", async () => {
      const account = page.locator('tr[data-account="telegram:default"]');
      await expect.poll(() => account.textContent()).toContain("running");
      telegram.pushMessage(BOT_TOKEN, privateMessage({ text: "hello?" }));
      const codeCall = await telegram.waitForCall("sendMessage", (c) => c.token === BOT_TOKEN);
      const code = /Pairing code: ([A-Z2-9]{8})/.exec(String(codeCall.params.text))?.[1];
      expect(code).toBeDefined();

      await page.getByRole("button", { name: "Refresh" }).click();
      const row = page.locator(`table.channel-pairing tr[data-code="${code}"]`);
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain("telegram");
      await page
        .getByRole("button", { name: "Probe every account (asks each platform who we are)" })
        .click();
      await expect.poll(() => account.textContent()).toContain("ok as pincer_main_bot");
      await screenshots(page, "channels-pairing");

      await row.getByRole("button", { name: /^Approve / }).click();
      await expect.poll(() => page.getByRole("status").textContent()).toContain("Approved");
      await expect.poll(() => row.count()).toBe(0);

      box.fake.text("Welcome aboard");
      const before = telegram.callsOf("sendMessage", BOT_TOKEN).length;
      telegram.pushMessage(BOT_TOKEN, privateMessage({ text: "now?" }));
      const reply = await telegram.waitForCall(
        "sendMessage",
        (c) =>
          c.token === BOT_TOKEN && telegram.callsOf("sendMessage", BOT_TOKEN).indexOf(c) >= before,
      );
      expect(String(reply.params.text)).toContain("Welcome aboard");
      await page.getByRole("button", { name: "Refresh" }).click();
      const lastIn = account.locator('td[data-label="Last in"]');
      await expect.poll(() => lastIn.textContent()).toMatch(/ago$/);
      await screenshots(page, "channels-approved");
    });
  });

  describe("WhatsApp QR login", () => {
    let box: GatewaySandbox;
    let page: Page;
    const fake = createFakeWhatsAppLogin();

    beforeAll(async () => {
      const memory = createMemoryChannel({ id: "whatsapp" });
      const adapter: ChannelAdapter = {
        ...memory.adapter,
        login: createWhatsAppLogin({ createSocket: fake.factory }),
      };
      box = await createGatewaySandbox({
        config: () => ({ channels: { whatsapp: { accounts: { personal: {} } } } }),
        options: { uiDir, channels: { loaders: { whatsapp: async () => adapter } } },
      });
      await memory.waitForAccount("personal");
      page = await openAdminPage({
        browser,
        gatewayUrl: box.gw.url,
        token: TEST_TOKEN,
        page: "channels",
      });
    }, 60_000);
    afterAll(async () => {
      await page?.close();
      await box?.close();
    });

    it("shows the gateway's QR image, then the link", async () => {
      await page.getByRole("button", { name: "Link WhatsApp account personal by QR code" }).click();
      const socket = await fake.socket(0);
      socket.qr("2@QR-ONE");
      const qr = page.getByRole("img", { name: /WhatsApp QR code/ });
      await qr.waitFor();
      expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
      await screenshots(page, "channels-whatsapp-qr");
      socket.scanned("15551234567:7@s.whatsapp.net");
      (await fake.socket(1)).open();
      // The panel closes once linked; the page's status line says so.
      await expect
        .poll(() => page.locator("p.status-line").textContent())
        .toContain("Linked +15551234567");
      expect(await qr.count()).toBe(0);
    });
  });
});
