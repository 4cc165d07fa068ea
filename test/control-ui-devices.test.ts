// The Devices page of the Control UI in headless Chromium against a real gateway: a second client (a
// Node client with a device identity, connecting from a non-loopback address) waits for approval;
// the browser sees its request arrive, clicks Approve, and the second client's next connect succeeds
// with its device token; Revoke closes its connection and its token stops working.
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

  it("approves a second browser's device request on Devices", async () => {
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
});
