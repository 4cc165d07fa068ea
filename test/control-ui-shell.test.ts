// The Control UI's shell end to end in headless Chromium (test/helpers/control-ui.ts): login, the
// navigation (keyboard, deep links, back/forward), the browser's device identity in the gateway's
// device store, and screenshots of the shell's pages.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDeviceStore } from "../src/gateway/devices/index.js";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
  waitForPage,
} from "./helpers/control-ui.js";
import { TEST_TOKEN } from "./helpers/gateway-sandbox.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);

const NAV = ["Overview", "Chat", "Sessions", "Agents", "Channels", "Devices", "Config", "Logs"];

async function currentNav(page: Page): Promise<string | null> {
  return page.locator('nav a[aria-current="page"]').textContent();
}

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI shell in headless Chromium", () => {
  let ui: ControlUi;

  beforeAll(async () => {
    ui = await startControlUi();
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  it("refuses a wrong token on the login form, then logs in with the right one", async () => {
    const page = await ui.browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(ui.url);
      await page.getByLabel("Gateway token").waitFor();
      await screenshot(page, "login");
      await page.getByLabel("Gateway token").fill("wrong-token");
      await page.getByRole("button", { name: "Connect" }).click();
      await expect.poll(() => page.locator(".login .error").textContent()).toContain("token");
      expect(await page.evaluate("sessionStorage.length")).toBe(0);
      await page.getByLabel("Gateway token").fill(TEST_TOKEN);
      await page.getByRole("button", { name: "Connect" }).click();
      await waitForPage(page, "#/overview");
      expect(await currentNav(page)).toBe("Overview");
      await screenshot(page, "shell-login-done");
    } finally {
      await page.close();
    }
  });

  it("takes a #token= once, strips it from the address, and keeps the route", async () => {
    const page = await ui.browser.newPage();
    try {
      await page.goto(`${ui.url}#/logs?token=${TEST_TOKEN}&level=warn`);
      await waitForPage(page, "#/logs");
      expect(new URL(page.url()).hash).toBe("#/logs?level=warn");
    } finally {
      await page.close();
    }
    const plain = await ui.browser.newPage();
    try {
      await plain.goto(`${ui.url}#token=${TEST_TOKEN}`);
      await waitForPage(plain, "#/overview");
      expect(new URL(plain.url()).hash).toBe("");
    } finally {
      await plain.close();
    }
  });

  it("offers every page in the navigation, reachable by keyboard, each deep link mounting its page", async () => {
    const page = await ui.open("#/overview");
    try {
      const names = await page.locator("nav a").allTextContents();
      expect(names.map((name) => name.trim())).toEqual(NAV);
      for (const name of NAV) {
        const link = page.getByRole("link", { name, exact: true });
        await link.focus();
        await page.keyboard.press("Enter");
        const route = `#/${name.toLowerCase()}`;
        await expect.poll(() => new URL(page.url()).hash).toBe(route);
        await waitForPage(page, route);
        expect(await currentNav(page)).toBe(name);
        expect(await page.locator("#page > *").count()).toBe(1);
      }
      // Back and forward walk the visited pages.
      await page.goBack();
      await waitForPage(page, "#/config");
      expect(await currentNav(page)).toBe("Config");
      await page.goForward();
      await waitForPage(page, "#/logs");
      // A deep link opened fresh lands on its page with its query.
      const deep = await ui.open("#/sessions?agent=main");
      try {
        expect(await currentNav(deep)).toBe("Sessions");
        const query = await deep.evaluate(
          `document.querySelector("pc-sessions-page").query.get("agent")`,
        );
        expect(query).toBe("main");
      } finally {
        await deep.close();
      }
    } finally {
      await page.close();
    }
  });

  it("connects as a paired device: the gateway's device store lists the browser, its token reused", async () => {
    const page = await ui.open("#/overview");
    try {
      const paired = await openDeviceStore({
        stateDir: ui.box.stateDir,
        clock: { now: Date.now },
      }).listPaired();
      const ids = paired.map((device) => device.deviceId);
      const deviceToken = await page.evaluate(`localStorage.getItem("pincer.control.deviceToken")`);
      expect(typeof deviceToken).toBe("string");
      expect(ids.length).toBeGreaterThan(0);
      const browserDevices = paired.filter((device) => device.clientId === "openclaw-control-ui");
      expect(browserDevices.length).toBeGreaterThan(0);
      // Without the gateway token (a new tab), the device token alone logs in.
      await page.evaluate("sessionStorage.clear()");
      await page.reload();
      await waitForPage(page, "#/overview");
    } finally {
      await page.close();
    }
  });

  it("says when the device needs pairing approval, with the command, and connects once approved", async () => {
    const store = openDeviceStore({ stateDir: ui.box.stateDir, clock: { now: Date.now } });
    const before = new Set((await store.listPaired()).map((device) => device.deviceId));
    const page = await ui.open("#/overview");
    try {
      const mine = (await store.listPaired()).find((device) => !before.has(device.deviceId));
      expect(mine).toBeDefined();
      // A revoked device is not paired again silently, not even on loopback.
      await store.revoke(mine!.deviceId);
      await page.reload();
      const notice = page.locator(".pairing");
      await expect
        .poll(() => notice.textContent(), { timeout: 10_000 })
        .toContain("pincer devices approve");
      expect(await notice.textContent()).toContain(mine!.deviceId);
      expect(await page.textContent("#status")).toBe("Waiting for pairing approval");
      const pending = await store.listPending();
      const request = pending.find((entry) => entry.deviceId === mine!.deviceId);
      expect(request).toBeDefined();
      expect(await notice.textContent()).toContain(`pincer devices approve ${request!.requestId}`);
      await screenshot(page, "pairing");
      await store.approve(request!.requestId);
      await waitForPage(page, "#/overview");
    } finally {
      await page.close();
    }
  });

  it("switches between light and dark, and remembers the choice", async () => {
    const page = await ui.open("#/overview");
    try {
      const toggle = page.getByRole("button", { name: /^Theme: auto$/ });
      await toggle.click();
      expect(await page.getAttribute("html", "data-theme")).toBe("dark");
      await screenshot(page, "shell-dark");
      await page.reload();
      await waitForPage(page, "#/overview");
      expect(await page.getAttribute("html", "data-theme")).toBe("dark");
      await page.getByRole("button", { name: /^Theme: dark$/ }).click();
      expect(await page.getAttribute("html", "data-theme")).toBe("light");
    } finally {
      await page.close();
    }
  });

  it("Overview: version, uptime, clients, channels, models, failures; config problems at the top", async () => {
    const page = await ui.open("#/overview");
    try {
      expect(await page.textContent("#gateway-version")).toBe(ui.box.gw.core.version);
      expect(await page.textContent("#gateway-uptime")).toMatch(/^\d+ (s|min)$/);
      await expect.poll(() => page.locator("#presence li").count()).toBeGreaterThan(0);
      await expect.poll(() => page.locator("#models").textContent()).toContain("fake/m1");
      await expect.poll(() => page.locator("#models .badge").textContent()).toBe("available");
      expect(await page.getByText("No channel is configured.").count()).toBe(1);
      expect(await page.locator(".problems").count()).toBe(0);
      await screenshot(page, "overview");
      const good = readFileSync(ui.box.configPath, "utf8");
      writeFileSync(ui.box.configPath, '{ gateway: { port: "not a port" } }');
      try {
        await page.reload();
        await waitForPage(page, "#/overview");
        const problems = page.locator(".problems");
        await expect.poll(() => problems.textContent()).toContain("gateway.port");
        await screenshot(page, "overview-config-problems");
      } finally {
        writeFileSync(ui.box.configPath, good);
      }
    } finally {
      await page.close();
    }
  });

  it("Logs: shows a line the gateway just wrote, filters by level and text, pauses, downloads", async () => {
    const page = await ui.open("#/logs");
    try {
      const lines = page.locator("#log-lines");
      const marker = `ui-log-marker-${Date.now()}`;
      ui.box.gw.core.logger.warn(`${marker} first`);
      await expect.poll(() => lines.textContent()).toContain(`${marker} first`);
      await page.selectOption("#log-level", "error");
      expect(await lines.textContent()).not.toContain(marker);
      expect(new URL(page.url()).hash).toBe("#/logs?level=error");
      await page.selectOption("#log-level", "");
      await page.fill("#log-filter", marker);
      await expect.poll(() => lines.locator(".line").count()).toBe(1);
      await page.getByRole("button", { name: "Pause" }).click();
      ui.box.gw.core.logger.warn(`${marker} while paused`);
      // A poll that was already under way may still land: wait past one poll interval's worth of
      // tails, then check the paused line is not there.
      await page.evaluate("new Promise((done) => setTimeout(done, 1500))");
      expect(await lines.textContent()).not.toContain("while paused");
      await page.getByRole("button", { name: "Resume" }).click();
      await expect.poll(() => lines.textContent()).toContain(`${marker} while paused`);
      await screenshot(page, "logs");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      const saved = await download.path();
      const text = readFileSync(saved, "utf8");
      expect(text.trim().split("\n")).toHaveLength(2);
      expect(text).toContain(`${marker} first`);
      // A deep link carries the filters.
      const deep = await ui.open(`#/logs?level=warn&q=${marker}`);
      try {
        await expect.poll(() => deep.locator("#log-lines .line").count()).toBe(2);
        expect(await deep.inputValue("#log-filter")).toBe(marker);
      } finally {
        await deep.close();
      }
    } finally {
      await page.close();
    }
  });

  it("serves its favicon and files under the strict policy, all of it at most 150 kB gzipped", async () => {
    const page = await ui.open("#/overview");
    try {
      const href = await page.getAttribute('link[rel="icon"]', "href");
      expect(href).toBe("favicon.svg");
      const res = await fetch(new URL(href ?? "", ui.url));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    } finally {
      await page.close();
    }
    const files = readdirSync(ui.uiDir);
    expect(files.sort()).toEqual(["app.css", "app.js", "favicon.svg", "index.html"]);
    const gzipped = files.reduce(
      (sum, name) => sum + gzipSync(readFileSync(join(ui.uiDir, name))).length,
      0,
    );
    expect(gzipped).toBeGreaterThan(1_000);
    expect(gzipped).toBeLessThanOrEqual(150 * 1024);
    // Every page's own stylesheet is in app.css.
    const css = readFileSync(join(ui.uiDir, "app.css"), "utf8");
    for (const name of readdirSync(join(process.cwd(), "src/ui/control/pages"))) {
      if (name.endsWith(".css")) expect(css).toContain(`/* pages/${name} */`);
    }
  });
});

describe.skipIf(CONTROL_UI_SKIP !== undefined)(
  "Control UI under gateway.controlUi.basePath",
  () => {
    let ui: ControlUi;

    beforeAll(async () => {
      ui = await startControlUi({
        config: () => ({
          gateway: { auth: { mode: "token", token: TEST_TOKEN }, controlUi: { basePath: "/ui" } },
        }),
      });
    }, 60_000);

    afterAll(async () => {
      await ui?.close();
    });

    it("serves the UI at /ui/ (its files under it, /ui redirected), not at /; the socket still connects", async () => {
      const origin = new URL(ui.url).origin;
      expect(ui.url).toBe(`${origin}/ui/`);
      const root = await fetch(`${origin}/`);
      expect(root.status).toBe(404);
      expect(await root.text()).toContain("/ui/");
      const bare = await fetch(`${origin}/ui?x=1`, { redirect: "manual" });
      expect(bare.status).toBe(301);
      expect(bare.headers.get("location")).toBe("/ui/?x=1");
      expect((await fetch(`${origin}/ui/app.js`)).status).toBe(200);
      expect((await fetch(`${origin}/app.js`)).status).toBe(404);
      expect((await fetch(`${origin}/health`)).status).toBe(200);
      const page = await ui.open("#/chat");
      try {
        expect(new URL(page.url()).pathname).toBe("/ui/");
        await page.getByRole("link", { name: "Logs", exact: true }).click();
        await waitForPage(page, "#/logs");
      } finally {
        await page.close();
      }
    });
  },
);
