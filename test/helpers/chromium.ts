// Where the browser tests find Chromium. PINCER_TEST_CHROMIUM, when set, is the only place looked
// at; otherwise Debian's /usr/bin/chromium, then a chromium / chromium-browser / google-chrome on
// PATH, then a browser playwright downloaded (`npx playwright install chromium`). playwright-core
// never downloads one itself, so a fresh machine may have none: see `browserTestsSkipped`.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { chromium } from "playwright-core";

/** What a Chromium search found, and where it looked (for the notice when nothing is there). */
export interface ChromiumSearch {
  executable: string | undefined;
  /** Every path tried, in order. */
  searched: string[];
  /** The places in words, for a notice. */
  described: string;
}

const PATH_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** Finds a Chromium executable from the environment (see the file comment for the order). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumSearch {
  const explicit = env.PINCER_TEST_CHROMIUM;
  const candidates = explicit
    ? [explicit]
    : [
        "/usr/bin/chromium",
        ...(env.PATH ?? "")
          .split(delimiter)
          .filter(Boolean)
          .flatMap((dir) => PATH_NAMES.map((name) => join(dir, name))),
        playwrightChromium(),
      ];
  const searched = [...new Set(candidates)];
  const described = explicit
    ? `PINCER_TEST_CHROMIUM=${explicit}`
    : `/usr/bin/chromium, ${PATH_NAMES.join(" / ")} on PATH, ${playwrightChromium()}`;
  return { executable: searched.find((path) => existsSync(path)), searched, described };
}

/**
 * The notice to print when the browser tests skip, else undefined: they skip only when no Chromium
 * was found and CI is not "true" (.ci/run installs Chromium and exports CI=true, so there a missing
 * browser fails them instead). Printed by the test file and again at the end of the run.
 */
export function browserSkipNotice(
  search: ChromiumSearch,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (search.executable || env.CI === "true") return undefined;
  return (
    `⚠ SKIPPING the WebChat browser tests: no Chromium found (looked at ${search.described}). ` +
    "Install one with `apt-get install -y --no-install-recommends chromium` or point " +
    "PINCER_TEST_CHROMIUM at it. Under CI=true these tests are required."
  );
}

/** The path playwright-core's registry would use for its own Chromium (it may not exist). */
function playwrightChromium(): string {
  return chromium.executablePath();
}
