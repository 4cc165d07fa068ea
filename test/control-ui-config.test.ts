// The Config page in headless Chromium against a real gateway: a bad edit (a schema error in the
// form, a JSON5 syntax error and a schema error in the raw editor) is shown at its field / line and
// not applied (the file on disk unchanged); a good edit applies and says it needs a restart; an
// apply based on a stale hash (the file changed meanwhile) is refused and shown, not overwritten.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildAdminUi,
  launchBrowser,
  openAdminPage,
  removeUi,
  SKIP_NOTICE,
  screenshots,
} from "./helpers/control-ui-admin.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

if (SKIP_NOTICE) console.warn(`\n${SKIP_NOTICE}\n`);

describe.skipIf(SKIP_NOTICE !== undefined)("Control UI: Config", () => {
  let box: GatewaySandbox;
  let browser: Browser;
  let page: Page;
  let uiDir: string;
  const onDisk = () => readFileSync(box.configPath, "utf8");

  beforeAll(async () => {
    uiDir = await buildAdminUi();
    box = await createGatewaySandbox({ options: { uiDir } });
    browser = await launchBrowser();
    page = await openAdminPage({
      browser,
      gatewayUrl: box.gw.url,
      token: TEST_TOKEN,
      page: "config",
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await box?.close();
    removeUi(uiDir);
  });

  it("shows a schema error at its field and applies nothing", async () => {
    const before = onDisk();
    const port = page.getByLabel("port", { exact: true });
    await port.fill("70000");
    await port.blur();
    await page.getByRole("button", { name: "Apply" }).click();
    const error = page.locator("#cfg-gateway-port-err");
    await expect.poll(() => error.textContent()).toMatch(/65535/);
    expect(await port.getAttribute("aria-invalid")).toBe("true");
    await screenshots(page, "config-form-error");
    expect(onDisk()).toBe(before);
  });

  it("shows a JSON5 syntax error and a schema error by line in the raw editor, applying nothing", async () => {
    const before = onDisk();
    await page.getByRole("button", { name: "Raw JSON5" }).click();
    const editor = page.getByLabel("Config file (JSON5)");
    expect(await editor.inputValue()).toContain('"gateway"');
    await editor.fill('{\n  "gateway": {\n    port: ,\n  },\n}\n');
    await page.getByRole("button", { name: "Apply" }).click();
    const issues = page.locator("#cfg-raw-issues li");
    await expect.poll(() => issues.first().textContent()).toContain("line 3, column 11");
    expect(await page.locator(".raw-editor .gutter .bad").textContent()).toBe("3");
    await screenshots(page, "config-raw-syntax");
    expect(onDisk()).toBe(before);

    await editor.fill('{\n  "gateway": {\n    "port": "abc",\n  },\n}\n');
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => issues.first().textContent()).toContain("gateway.port");
    expect(await issues.first().textContent()).toContain("line 3");
    expect(onDisk()).toBe(before);
    await page.getByRole("button", { name: "Form" }).click();
  });

  it("applies a good edit and says it needs a restart", async () => {
    await page.getByRole("button", { name: "Reload" }).click();
    const port = page.getByLabel("port", { exact: true });
    await port.fill("18999");
    await port.blur();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toContain("Needs a gateway restart to take effect: gateway.port");
    expect(JSON.parse(onDisk()).gateway.port).toBe(18999);
    expect(await port.inputValue()).toBe("18999");
    await screenshots(page, "config-applied");
  });

  it("refuses an apply based on a stale hash and keeps the other writer's change", async () => {
    // Another client changes the file after the page loaded it.
    const other = await box.connect();
    const { hash } = payloadOf(await other.request("config.get", {}));
    const written = await other.request("config.patch", {
      raw: "{ gateway: { port: 18777 } }",
      baseHash: hash,
    });
    expect(written.ok).toBe(true);
    other.close();
    const port = page.getByLabel("port", { exact: true });
    await port.fill("18555");
    await port.blur();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("changed since it was loaded");
    expect(JSON.parse(onDisk()).gateway.port).toBe(18777);
    await screenshots(page, "config-conflict");
    await page.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => port.inputValue()).toBe("18777");
  });
});
