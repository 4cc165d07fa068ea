// The Devices page in headless Chromium against a real gateway: a second client (a Node client with
// a device identity, connecting from a non-loopback address) waits for approval; the browser sees
// its request arrive, clicks Approve, and the second client's next connect succeeds with its device
// token; Revoke closes its connection and its token stops working.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeviceIdentity } from "../src/gateway/devices/index.js";
import {
  buildAdminUi,
  launchBrowser,
  openAdminPage,
  removeUi,
  SKIP_NOTICE,
  screenshots,
} from "./helpers/control-ui-admin.js";
import { connectDevice } from "./helpers/device-client.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

if (SKIP_NOTICE) console.warn(`\n${SKIP_NOTICE}\n`);
const RW = ["operator.read", "operator.write"];

describe.skipIf(SKIP_NOTICE !== undefined)("Control UI: Devices", () => {
  let box: GatewaySandbox;
  let browser: Browser;
  let page: Page;
  let uiDir: string;

  beforeAll(async () => {
    uiDir = await buildAdminUi();
    box = await createGatewaySandbox({ options: { uiDir } });
    browser = await launchBrowser();
    page = await openAdminPage({
      browser,
      gatewayUrl: box.gw.url,
      token: TEST_TOKEN,
      page: "devices",
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await box?.close();
    removeUi(uiDir);
  });

  it("approves a second browser's device request on Devices", async () => {
    await page.getByRole("heading", { name: /Pending requests \(0\)/ }).waitFor();
    const identity = createDeviceIdentity();
    const waiting = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
      remote: true,
    });
    expect(waiting.res.ok).toBe(false);
    expect((waiting.res.error as { code: string }).code).toBe("NOT_PAIRED");

    // The request arrives by event (no reload), with who asks and for what.
    const row = page.locator("table.devices-pending tbody tr");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Second laptop");
    expect(await row.textContent()).toContain("operator: operator.read, operator.write");
    await screenshots(page, "devices-pending");

    await page.getByRole("button", { name: /^Approve Second laptop/ }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toContain("Approved Second laptop");
    await expect.poll(() => row.count()).toBe(0);

    const admitted = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
      remote: true,
    });
    expect(admitted.res.ok).toBe(true);
    const deviceToken = String(payloadOf(admitted.res).auth.deviceToken);
    expect(deviceToken.length).toBeGreaterThan(20);

    const paired = page.locator(`table.devices-paired tr[data-device-id="${identity.deviceId}"]`);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => paired.textContent()).toContain("connected");
    await screenshots(page, "devices-paired");

    // Revoke: its connection closes and the token no longer gets it in.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: /^Revoke Second laptop/ }).click();
    expect((await admitted.ws.closed).code).toBe(1008);
    await expect.poll(() => paired.textContent()).toContain("revoked");
    const refused = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { deviceToken },
      scopes: RW,
      remote: true,
    });
    expect(refused.res.ok).toBe(false);
  });
});
