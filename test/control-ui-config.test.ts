// The Config page of the Control UI in headless Chromium against a real gateway: a bad edit (a
// schema error in the form, a JSON5 syntax error and a schema error in the raw editor) is shown at
// its field / line and not applied (the file on disk unchanged); a good edit applies and says it
// needs a restart; an apply based on a stale hash (the file changed meanwhile) is refused and shown,
// not overwritten.
import { readFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
} from "./helpers/control-ui.js";
import { payloadOf } from "./helpers/gateway-sandbox.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI: Config", () => {
  let ui: ControlUi;
  let page: Page;
  let view: Locator;
  const onDisk = () => readFileSync(ui.box.configPath, "utf8");

  beforeAll(async () => {
    ui = await startControlUi();
    page = await ui.open("#/config");
    view = page.locator("#page > pc-config-page");
  }, 60_000);
  afterAll(async () => ui?.close());

  it("shows a schema error at its field and applies nothing", async () => {
    const before = onDisk();
    const port = view.getByLabel("port", { exact: true });
    await port.fill("70000");
    await port.blur();
    await view.getByRole("button", { name: "Apply" }).click();
    const error = view.locator("#cfg-gateway-port-err");
    await expect.poll(() => error.textContent()).toMatch(/65535/);
    expect(await port.getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "config-form-error");
    expect(onDisk()).toBe(before);
  });

  it("shows a JSON5 syntax error and a schema error by line in the raw editor, applying nothing", async () => {
    const before = onDisk();
    await view.getByRole("button", { name: "Raw JSON5" }).click();
    const editor = view.getByLabel("Config file (JSON5)");
    expect(await editor.inputValue()).toContain('"gateway"');
    await editor.fill('{\n  "gateway": {\n    port: ,\n  },\n}\n');
    await view.getByRole("button", { name: "Apply" }).click();
    const issues = view.locator("#cfg-raw-issues li");
    await expect.poll(() => issues.first().textContent()).toContain("line 3, column 11");
    expect(await view.locator(".raw-editor .gutter .bad").textContent()).toBe("3");
    await screenshot(page, "config-raw-syntax");
    expect(onDisk()).toBe(before);

    await editor.fill('{\n  "gateway": {\n    "port": "abc",\n  },\n}\n');
    await view.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => issues.first().textContent()).toContain("gateway.port");
    expect(await issues.first().textContent()).toContain("line 3");
    expect(onDisk()).toBe(before);
    await view.getByRole("button", { name: "Form" }).click();
  });

  it("applies a good edit and says it needs a restart", async () => {
    await view.getByRole("button", { name: "Reload" }).click();
    // The reload drops edits: fill only once it is done.
    await expect.poll(() => view.getByRole("status").getAttribute("aria-busy")).toBe("false");
    const port = view.getByLabel("port", { exact: true });
    await port.fill("18999");
    await port.blur();
    await view.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(() => view.getByRole("status").textContent())
      .toContain("Needs a gateway restart to take effect: gateway.port");
    expect(JSON.parse(onDisk()).gateway.port).toBe(18999);
    expect(await port.inputValue()).toBe("18999");
    await screenshot(page, "config-applied");
  });

  it("refuses an apply based on a stale hash and keeps the other writer's change", async () => {
    // Another client changes the file after the page loaded it.
    const other = await ui.box.connect();
    const { hash } = payloadOf(await other.request("config.get", {}));
    const written = await other.request("config.patch", {
      raw: "{ gateway: { port: 18777 } }",
      baseHash: hash,
    });
    expect(written.ok).toBe(true);
    other.close();
    const port = view.getByLabel("port", { exact: true });
    await port.fill("18555");
    await port.blur();
    await view.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(() => view.getByRole("alert").textContent())
      .toContain("changed since it was loaded");
    expect(JSON.parse(onDisk()).gateway.port).toBe(18777);
    await screenshot(page, "config-conflict");
    await view.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => port.inputValue()).toBe("18777");
  });
});
