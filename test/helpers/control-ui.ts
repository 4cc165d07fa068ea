// The Control UI in headless Chromium for end-to-end tests. `startControlUi()` builds the bundle
// (once while any UI of the test file runs) into a temp dir, starts a real gateway (gateway-sandbox.ts: port 0, temp
// state, the fake model) serving it, and launches Chromium; `ui.open("#/chat")` gives a logged-in
// page at a route (the status says Connected and the page element is there). `screenshot(page,
// "chat")` writes ${os.tmpdir()}/pincer-ui-shots/chat-390.png and chat-1280.png. Without Chromium
// the tests skip with `CONTROL_UI_SKIP` as the notice (required under CI=true, as WebChat's were).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "rolldown";
import { controlUiBundleOptions } from "../../scripts/control-ui-bundle.mjs";
import type { StartGatewayOptions } from "../../src/gateway/index.js";
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import { browserSkipNotice, findChromium } from "./chromium.js";
import { createGatewaySandbox, type GatewaySandbox, TEST_TOKEN } from "./gateway-sandbox.js";

const CHROMIUM = findChromium();

/** Why the browser tests skip here (no Chromium and not CI), else undefined: `describe.skipIf`. */
export const CONTROL_UI_SKIP = browserSkipNotice(CHROMIUM);

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The two widths every page is checked (and photographed) at: a phone and a laptop. */
export const SHOT_WIDTHS = [390, 1280] as const;

/**
 * Where screenshots go (not committed; open them with an image viewer): the machine's temp dir,
 * not the test run's private one (test/global-setup.ts removes that one at the end of the run).
 */
export const SHOTS_DIR = join(
  process.env.PINCER_TEST_RUN_TMPDIR ? dirname(process.env.PINCER_TEST_RUN_TMPDIR) : tmpdir(),
  "pincer-ui-shots",
);

/** The bundle of this test file, shared by its running UIs; removed when the last one closes. */
let built: { dir: Promise<string>; users: number } | undefined;

/** Builds the Control UI bundle into a temp dir, once while any UI of this file runs. */
async function acquireBundle(): Promise<string> {
  built ??= {
    dir: (async () => {
      const dir = mkdtempSync(join(tmpdir(), "pincer-control-ui-"));
      await build({ ...controlUiBundleOptions({ outDir: dir }), logLevel: "warn" });
      return dir;
    })(),
    users: 0,
  };
  built.users++;
  return built.dir;
}

async function releaseBundle(): Promise<void> {
  if (!built || --built.users > 0) return;
  const dir = await built.dir;
  built = undefined;
  rmSync(dir, { recursive: true, force: true });
}

/** A running gateway serving the Control UI, and a browser. */
export interface ControlUi {
  box: GatewaySandbox;
  browser: Browser;
  uiDir: string;
  /** `http://127.0.0.1:<port>` + basePath + `/`: the UI's address. */
  url: string;
  /** Opens a new logged-in page (1280×800 unless `width` is given) at `route` (`#/chat?x=y`). */
  open(route?: string, options?: { width?: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Inputs of {@link startControlUi}: extra config and gateway options (as gateway-sandbox takes
 *  them; `uiDir` is always the bundle's). */
export interface StartControlUiParams {
  config?: (baseUrl: string) => Partial<OpenClawConfig>;
  options?: Partial<StartGatewayOptions>;
}

/** Waits until the shell says Connected and the route's page element is mounted. */
export async function waitForPage(page: Page, route: string): Promise<void> {
  const name = /^#\/([a-z]+)/.exec(route)?.[1] ?? "overview";
  await page.waitForSelector(`#status:text-is("Connected")`);
  await page.waitForSelector(`#page > pc-${name}-page`);
}

/** Builds the UI, starts the gateway and Chromium (throws under CI=true without Chromium). */
export async function startControlUi(params: StartControlUiParams = {}): Promise<ControlUi> {
  const executablePath = CHROMIUM.executable;
  if (!executablePath) {
    throw new Error(
      `no Chromium found (looked at ${CHROMIUM.described}), and CI=true requires the browser ` +
        "tests: apt-get install -y --no-install-recommends chromium",
    );
  }
  const uiDir = await acquireBundle();
  const box = await createGatewaySandbox({
    ...(params.config ? { config: params.config } : {}),
    options: { ...params.options, uiDir },
  });
  const basePath = box.gw.core.live.config.gateway?.controlUi?.basePath ?? "";
  const url = `${box.gw.url.replace("ws://", "http://")}${basePath.replace(/\/+$/, "")}/`;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  return {
    box,
    browser,
    uiDir,
    url,
    open: async (route = "#/overview", options = {}) => {
      const page = await browser.newPage({
        viewport: { width: options.width ?? 1280, height: 800 },
      });
      const joiner = route.includes("?") ? "&" : "?";
      await page.goto(`${url}${route}${joiner}token=${TEST_TOKEN}`);
      await waitForPage(page, route);
      return page;
    },
    close: async () => {
      await browser.close();
      await box.close();
      await releaseBundle();
    },
  };
}

/** Screenshots `page` at both widths into SHOTS_DIR (`<name>-390.png`, `<name>-1280.png`). */
export async function screenshot(page: Page, name: string): Promise<string[]> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  const files: string[] = [];
  for (const width of SHOT_WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const path = join(SHOTS_DIR, `${name}-${width}.png`);
    await page.screenshot({ path });
    files.push(path);
  }
  if (before) await page.setViewportSize(before);
  return files;
}
