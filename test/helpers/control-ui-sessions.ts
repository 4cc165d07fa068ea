// Browser harness for the Sessions and Agents pages until the Control UI shell lands on main: bundles
// test/fixtures/control-ui-pages (a stand-in shell on the shared gateway client) with the pages'
// stylesheets into a temp folder a real gateway serves, launches Chromium and opens a page, and
// writes screenshots into ${os.tmpdir()}/pincer-ui-shots/ (the tmpdir outside the test run's own).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "rolldown";
import { browserSkipNotice, findChromium } from "./chromium.js";
import { type GatewaySandbox, TEST_TOKEN } from "./gateway-sandbox.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = join(ROOT, "test/fixtures/control-ui-pages");
const PAGE_STYLES = ["sessions-page.css", "agents-page.css"];
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"];

/** Where Chromium is, and the notice to print when the browser tests skip (none under CI=true). */
export const CHROMIUM = findChromium();
/** Set when the browser tests must skip (no Chromium and not CI). */
export const SKIP_NOTICE = browserSkipNotice(CHROMIUM);

/** Builds the harness bundle (app.js, index.html, app.css) into a new temp folder; returns it. */
export async function buildPagesHarness(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "pincer-ui-pages-"));
  await build({
    input: { app: join(FIXTURE, "entry.js") },
    platform: "browser",
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    logLevel: "warn",
    output: { dir: outDir, format: "esm", entryFileNames: "[name].js" },
  });
  writeFileSync(join(outDir, "index.html"), readFileSync(join(FIXTURE, "index.html")));
  const css = [
    join(FIXTURE, "harness.css"),
    ...PAGE_STYLES.map((name) => join(ROOT, "src/ui/control/pages", name)),
  ]
    .map((path) => readFileSync(path, "utf8"))
    .join("\n");
  writeFileSync(join(outDir, "app.css"), css);
  return outDir;
}

/** Launches headless Chromium (throws when none was found: callers skip first). */
export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM.executable) {
    throw new Error(`no Chromium found (looked at ${CHROMIUM.described}); CI=true requires it`);
  }
  return chromium.launch({ executablePath: CHROMIUM.executable, args: CHROMIUM_ARGS });
}

/** Opens `#/<route>` of the harness, logged in with the sandbox's token, at `width` px. */
export async function openPage(params: {
  browser: Browser;
  box: GatewaySandbox;
  route: string;
  width: number;
}): Promise<Page> {
  const page = await params.browser.newPage({ viewport: { width: params.width, height: 900 } });
  page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
  const base = params.box.gw.url.replace("ws://", "http://");
  await page.goto(`${base}/?token=${encodeURIComponent(TEST_TOKEN)}#/${params.route}`);
  await page.waitForSelector("body[data-ready=true]");
  return page;
}

/** Writes a full-page screenshot as `<name>-<width>.png` into the shared shots folder; its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  // The run's TMPDIR (test/global-setup.ts) is removed at the end: the shots go to the one it is in.
  const runDir = process.env.PINCER_TEST_RUN_TMPDIR;
  const dir = join(runDir ? dirname(runDir) : tmpdir(), "pincer-ui-shots");
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = join(dir, `${name}-${width}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
