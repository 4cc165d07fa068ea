// Until the Control UI shell lands: bundles a tiny entry (test/fixtures/control-ui-admin) that mounts
// the Channels / Devices / Config page elements on the shared gateway client, into a temp dir the
// test's gateway serves as its UI; launches headless Chromium; opens a page logged in with a token.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "rolldown";
import { browserSkipNotice, findChromium } from "./chromium.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/control-ui-admin/", import.meta.url));
const PAGES = fileURLToPath(new URL("../../src/ui/control/pages/", import.meta.url));

/** Chromium, and the notice when the browser tests skip (see chromium.ts). */
export const CHROMIUM = findChromium();
export const SKIP_NOTICE = browserSkipNotice(CHROMIUM);

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"];

/** Builds the fixture bundle (app.js, index.html, app.css + every pages/*.css) into a temp dir. */
export async function buildAdminUi(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "pincer-ui-admin-"));
  const pageCss = readdirSync(PAGES)
    .filter((name) => name.endsWith(".css"))
    .map((name) => readFileSync(join(PAGES, name), "utf8"));
  await build({
    input: { app: join(FIXTURE, "main.ts") },
    platform: "browser",
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    logLevel: "warn",
    plugins: [
      {
        name: "admin-fixture-static",
        generateBundle() {
          this.emitFile({
            type: "asset",
            fileName: "index.html",
            source: readFileSync(join(FIXTURE, "index.html")),
          });
          const css = [readFileSync(join(FIXTURE, "app.css"), "utf8"), ...pageCss].join("\n");
          this.emitFile({ type: "asset", fileName: "app.css", source: css });
        },
      },
    ],
    output: { dir: outDir, format: "esm", entryFileNames: "[name].js" },
  });
  return outDir;
}

/** Launches Chromium (throws when none: the caller skips first when SKIP_NOTICE is set). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = CHROMIUM.executable;
  if (!executablePath) throw new Error(`no Chromium found (looked at ${CHROMIUM.described})`);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/** Opens `#/<page>` logged in with `token`, once the fixture says it is connected. */
export async function openAdminPage(params: {
  browser: Browser;
  gatewayUrl: string;
  token: string;
  page: "channels" | "devices" | "config";
  width?: number;
}): Promise<Page> {
  const page = await params.browser.newPage({
    viewport: { width: params.width ?? 1280, height: 900 },
  });
  page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
  const base = params.gatewayUrl.replace("ws://", "http://");
  await page.goto(`${base}/?token=${encodeURIComponent(params.token)}#/${params.page}`);
  await page.waitForSelector("body[data-ready], body[data-error]");
  const error = await page.getAttribute("body", "data-error");
  if (error) throw new Error(`the UI fixture failed to connect: ${error}`);
  return page;
}

/** Where screenshots go: `<tmp>/pincer-ui-shots/` of the machine's temp dir, not the test run's
 *  private one (test/global-setup.ts removes that and fails the run on anything left in it). */
export function shotsDir(): string {
  const runDir = process.env.PINCER_TEST_RUN_TMPDIR;
  return join(runDir ? dirname(runDir) : tmpdir(), "pincer-ui-shots");
}

/** Writes full-page screenshots of `page` at 390 and 1280 px into {@link shotsDir}. */
export async function screenshots(page: Page, name: string): Promise<void> {
  const dir = shotsDir();
  mkdirSync(dir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Removes a bundle dir. */
export function removeUi(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
