// The Channels page of the Control UI in headless Chromium against a real gateway: with the fake
// Telegram Bot API, an unknown DM sender's pairing request is approved on the page and the sender's
// next DM is answered; Probe shows who the bot is. With WhatsApp faked at the socket seam, Link (QR)
// shows the gateway's QR image and ends linked.
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelAdapter } from "../src/channels/types.js";
import { createWhatsAppLogin } from "../src/channels/whatsapp/web/linker.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
} from "./helpers/control-ui.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { createFakeWhatsAppLogin } from "./helpers/fake-whatsapp-login.js";
import { createMemoryChannel } from "./helpers/memory-channel.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);
const BOT_TOKEN = "111:main-token";

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI: Channels", () => {
  describe("Telegram", () => {
    let ui: ControlUi;
    let telegram: FakeTelegram;
    let page: Page;
    let view: Locator;

    beforeAll(async () => {
      telegram = await startFakeTelegram();
      telegram.addBot(BOT_TOKEN, { id: 111000, username: "pincer_main_bot" });
      ui = await startControlUi({
        config: () => ({
          channels: {
            telegram: { apiRoot: telegram.apiRoot, accounts: { default: { botToken: BOT_TOKEN } } },
          } as OpenClawConfig["channels"],
        }),
      });
      await telegram.waitForCall("getUpdates", (c) => c.token === BOT_TOKEN);
      page = await ui.open("#/channels");
      view = page.locator("#page > pc-channels-page");
    }, 60_000);
    afterAll(async () => {
      await ui?.close();
      await telegram?.close();
    });

    it("approves a pending Telegram pairing request and the sender's next DM is answered", async () => {
      const account = view.locator('tr[data-account="telegram:default"]');
      await expect.poll(() => account.textContent()).toContain("running");
      telegram.pushMessage(BOT_TOKEN, privateMessage({ text: "hello?" }));
      const codeCall = await telegram.waitForCall("sendMessage", (c) => c.token === BOT_TOKEN);
      const code = /Pairing code: ([A-Z2-9]{8})/.exec(String(codeCall.params.text))?.[1];
      expect(code).toBeDefined();

      await view.getByRole("button", { name: "Refresh" }).click();
      const row = view.locator(`table.channel-pairing tr[data-code="${code}"]`);
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain("telegram");
      await view
        .getByRole("button", { name: "Probe every account (asks each platform who we are)" })
        .click();
      await expect.poll(() => account.textContent()).toContain("ok as pincer_main_bot");
      await screenshot(page, "channels-pairing");

      await row.getByRole("button", { name: /^Approve / }).click();
      await expect.poll(() => view.getByRole("status").textContent()).toContain("Approved");
      await expect.poll(() => row.count()).toBe(0);

      ui.box.fake.text("Welcome aboard");
      const before = telegram.callsOf("sendMessage", BOT_TOKEN).length;
      telegram.pushMessage(BOT_TOKEN, privateMessage({ text: "now?" }));
      const reply = await telegram.waitForCall(
        "sendMessage",
        (c) =>
          c.token === BOT_TOKEN && telegram.callsOf("sendMessage", BOT_TOKEN).indexOf(c) >= before,
      );
      expect(String(reply.params.text)).toContain("Welcome aboard");
      await view.getByRole("button", { name: "Refresh" }).click();
      const lastIn = account.locator('td[data-label="Last in"]');
      await expect.poll(() => lastIn.textContent()).toMatch(/ago$/);
      await screenshot(page, "channels-approved");
    });
  });

  describe("WhatsApp QR login", () => {
    let ui: ControlUi;
    let page: Page;
    let view: Locator;
    const fake = createFakeWhatsAppLogin();

    beforeAll(async () => {
      const memory = createMemoryChannel({ id: "whatsapp" });
      const adapter: ChannelAdapter = {
        ...memory.adapter,
        login: createWhatsAppLogin({ createSocket: fake.factory }),
      };
      ui = await startControlUi({
        config: () => ({ channels: { whatsapp: { accounts: { personal: {} } } } }),
        options: { channels: { loaders: { whatsapp: async () => adapter } } },
      });
      await memory.waitForAccount("personal");
      page = await ui.open("#/channels");
      view = page.locator("#page > pc-channels-page");
    }, 60_000);
    afterAll(async () => ui?.close());

    it("shows the gateway's QR image, then the link", async () => {
      await view.getByRole("button", { name: "Link WhatsApp account personal by QR code" }).click();
      const socket = await fake.socket(0);
      socket.qr("2@QR-ONE");
      const qr = view.getByRole("img", { name: /WhatsApp QR code/ });
      await qr.waitFor();
      expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
      await screenshot(page, "channels-whatsapp-qr");
      socket.scanned("15551234567:7@s.whatsapp.net");
      (await fake.socket(1)).open();
      // The panel closes once linked; the page's status line says so.
      await expect
        .poll(() => view.locator("p.status-line").textContent())
        .toContain("Linked +15551234567");
      expect(await qr.count()).toBe(0);
    });
  });
});
