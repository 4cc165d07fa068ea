// The Devices page of the Control UI in headless Chromium against a real gateway: a device from a
// non-loopback address (a Node client, then a second browser with its own device key, through a
// proxy that stamps X-Forwarded-For) waits for
// approval; the page sees its request arrive, Approve lets it in (the Node client's next connect gets
// its device token; the second browser connects by itself); Revoke closes the device's connection
// and its token stops working.
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeviceIdentity } from "../src/gateway/devices/index.js";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
} from "./helpers/control-ui.js";
import { connectDevice } from "./helpers/device-client.js";
import { startForwardingProxy } from "./helpers/forwarding-proxy.js";
import { payloadOf, TEST_TOKEN } from "./helpers/gateway-sandbox.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);
const RW = ["operator.read", "operator.write"];

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI: Devices", () => {
  let ui: ControlUi;
  let page: Page;
  let view: Locator;

  beforeAll(async () => {
    ui = await startControlUi();
    page = await ui.open("#/devices");
    view = page.locator("#page > pc-devices-page");
  }, 60_000);
  afterAll(async () => ui?.close());

  it("approves a waiting device's request (a Node client), then revokes it", async () => {
    const url = ui.box.gw.url;
    await view.getByRole("heading", { name: /Pending requests \(0\)/ }).waitFor();
    // The browser itself is a paired device (loopback), listed as connected.
    await expect.poll(() => view.locator("table.devices-paired tbody tr").count()).toBe(1);
    const identity = createDeviceIdentity();
    const waiting = await connectDevice({
      url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
      remote: true,
    });
    expect(waiting.res.ok).toBe(false);
    expect((waiting.res.error as { code: string }).code).toBe("NOT_PAIRED");

    // The request arrives by event (no reload), with who asks and for what.
    const row = view.locator("table.devices-pending tbody tr");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Second laptop");
    expect(await row.textContent()).toContain("operator: operator.read, operator.write");
    await screenshot(page, "devices-pending");

    await view.getByRole("button", { name: /^Approve Second laptop/ }).click();
    await expect
      .poll(() => view.getByRole("status").textContent())
      .toContain("Approved Second laptop");
    await expect.poll(() => row.count()).toBe(0);

    const admitted = await connectDevice({
      url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
      remote: true,
    });
    expect(admitted.res.ok).toBe(true);
    const deviceToken = String(payloadOf(admitted.res).auth.deviceToken);
    expect(deviceToken.length).toBeGreaterThan(20);

    const paired = view.locator(`table.devices-paired tr[data-device-id="${identity.deviceId}"]`);
    await view.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => paired.textContent()).toContain("connected");
    await screenshot(page, "devices-paired");

    // Revoke: its connection closes and the token no longer gets it in.
    page.once("dialog", (dialog) => void dialog.accept());
    await view.getByRole("button", { name: /^Revoke Second laptop/ }).click();
    expect((await admitted.ws.closed).code).toBe(1008);
    await expect.poll(() => paired.textContent()).toContain("revoked");
    const refused = await connectDevice({
      url,
      identity,
      auth: { deviceToken },
      scopes: RW,
      remote: true,
    });
    expect(refused.res.ok).toBe(false);
  });

  it("approves a second browser's device request on Devices: it connects by itself", async () => {
    // Another browser (its own storage, so its own device key), reaching the gateway from a
    // non-loopback address: it is not paired automatically. Chromium sends no extra HTTP headers
    // on a WebSocket upgrade, so the page is served through a proxy that stamps them.
    const proxy = await startForwardingProxy(ui.url);
    const context = await ui.browser.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const second = await context.newPage();
      await second.goto(`${proxy.url}${new URL(ui.url).pathname}#/overview?token=${TEST_TOKEN}`);
      await second.getByRole("heading", { name: "This browser needs pairing approval" }).waitFor();
      const row = view.locator("table.devices-pending tbody tr", { hasText: "Pincer Control UI" });
      await expect.poll(() => row.count()).toBe(1);
      await screenshot(page, "devices-second-browser");
      await row.getByRole("button", { name: /^Approve / }).click();
      await second.waitForSelector(`#status:text-is("Connected")`, { timeout: 15_000 });
      await expect.poll(() => row.count()).toBe(0);
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});
