// WebChat end to end in headless Chromium (found by test/helpers/chromium.ts, driven by playwright-core):
// the bundle is built from src/ui/webchat into a temp folder and served by a real gateway on port 0
// whose model is the scripted fake (slow streams for deltas, a hang for the abort).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webchatBundleOptions } from "../scripts/webchat-bundle.mjs";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { browserSkipNotice, findChromium } from "./helpers/chromium.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

// Without a Chromium these tests skip with a notice, except under CI=true (.ci/run installs it),
// where the missing browser fails them.
const CHROMIUM = findChromium();
const SKIP_NOTICE = browserSkipNotice(CHROMIUM);
if (SKIP_NOTICE) console.warn(`\n${SKIP_NOTICE}\n`);
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

/** Records every text the assistant bubbles show, in `window.seenTexts`, as they change. */
const RECORD_ASSISTANT_TEXTS = `(() => {
  const seen = [];
  window.seenTexts = seen;
  const list = document.getElementById("messages");
  new MutationObserver(() => {
    for (const item of list.querySelectorAll("li.assistant")) seen.push(item.textContent ?? "");
  }).observe(list, { childList: true, subtree: true, characterData: true });
})()`;

async function messageTexts(page: Page, role: "user" | "assistant"): Promise<string[]> {
  return page.locator(`#messages li.${role}`).allTextContents();
}

/** Where the message list stands: its scroll box, and whether the page itself grew past the window. */
interface ListScroll {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  pageOverflows: boolean;
  lastVisible: boolean;
}

/** Reads {@link ListScroll} in the page (a script string: this file is typed without the DOM). */
const READ_LIST_SCROLL = `(() => {
  const list = document.getElementById("messages");
  const last = list.lastElementChild?.getBoundingClientRect();
  return {
    scrollTop: list.scrollTop,
    scrollHeight: list.scrollHeight,
    clientHeight: list.clientHeight,
    pageOverflows: document.scrollingElement.scrollHeight > window.innerHeight + 1,
    lastVisible: last !== undefined && last.bottom <= window.innerHeight && last.bottom > 0,
  };
})()`;

async function listScroll(page: Page): Promise<ListScroll> {
  return (await page.evaluate(READ_LIST_SCROLL)) as ListScroll;
}

function atBottom(scroll: ListScroll): boolean {
  return scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight <= 2;
}

/** Runs `turns` chat turns in `sessionKey` from a separate protocol client (another device). */
async function runTurns(box: GatewaySandbox, sessionKey: string, turns: number): Promise<void> {
  const client = await box.connect();
  try {
    for (let turn = 1; turn <= turns; turn++) {
      box.fake.text(`reply ${turn}\nwith a second line`);
      const idempotencyKey = randomUUID();
      const res = await client.request("chat.send", {
        sessionKey,
        message: `message ${turn}`,
        idempotencyKey,
      });
      expect(res.ok).toBe(true);
      const done = await client.request(
        "agent.wait",
        { runId: idempotencyKey, timeoutMs: 10_000 },
        15_000,
      );
      expect(payloadOf(done).status).toBe("ok");
    }
  } finally {
    client.close();
  }
}

async function sendMessage(page: Page, text: string): Promise<void> {
  await page.fill("#message-input", text);
  await page.click("#send");
}

describe.skipIf(SKIP_NOTICE !== undefined)("WebChat in headless Chromium", () => {
  let box: GatewaySandbox;
  let browser: Browser;
  let page: Page;
  let base: string;
  let uiDir: string;
  let restarted: GatewayHandle | undefined;

  beforeAll(async () => {
    const executablePath = CHROMIUM.executable;
    if (!executablePath) {
      throw new Error(
        `no Chromium found (looked at ${CHROMIUM.described}), and CI=true requires the browser ` +
          "tests: apt-get install -y --no-install-recommends chromium",
      );
    }
    uiDir = mkdtempSync(join(tmpdir(), "pincer-webchat-"));
    await build({ ...webchatBundleOptions({ outDir: uiDir }), logLevel: "warn" });
    box = await createGatewaySandbox({
      config: () => ({ agents: { list: [{ id: "main" }, { id: "helper", name: "Helper" }] } }),
      options: { uiDir },
    });
    base = box.gw.url.replace("ws://", "http://");
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 390, height: 800 } });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    // The restarted gateway writes into the sandbox's state dir: closed before the sandbox removes it.
    await restarted?.close();
    await box?.close();
    if (uiDir) rmSync(uiDir, { recursive: true, force: true });
  });

  it("shows an error for a wrong token and stays on the login form", async () => {
    await page.goto(`${base}/`);
    await page.fill("#token-input", "wrong-token");
    await page.click("#login-form button[type=submit]");
    await expect.poll(() => page.textContent("#error")).toContain("token mismatch");
    expect(await page.isVisible("#login")).toBe(true);
    expect(await page.isVisible("#chat")).toBe(false);
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
  });

  it("logs in with the right token and offers the agents, the main session selected", async () => {
    await page.fill("#token-input", TEST_TOKEN);
    await page.click("#login-form button[type=submit]");
    await page.waitForSelector("#chat:not([hidden])");
    expect(await page.isVisible("#error")).toBe(false);
    const agents = await page
      .locator("#agent-picker option")
      .evaluateAll((items) => items.map((item) => item.getAttribute("value")));
    expect(agents).toEqual(["main", "helper"]);
    await expect.poll(() => page.inputValue("#session-picker")).toBe("agent:main:main");
    expect(await page.textContent("#status")).toBe("Connected");
  });

  it("streams the reply as deltas arrive, then shows the final", async () => {
    const reply = "Streaming <b>reply</b> arrives in several small pieces";
    box.fake.text(reply, { chunks: 6, delayMs: 120 });
    await page.evaluate(RECORD_ASSISTANT_TEXTS);
    await sendMessage(page, "hello <i>there</i>");
    await page.waitForSelector("#messages li.assistant.streaming");
    await page.waitForSelector("#messages li.assistant:not(.streaming)");
    expect(await messageTexts(page, "user")).toEqual(["hello <i>there</i>"]);
    expect(await messageTexts(page, "assistant")).toEqual([reply]);
    expect(await page.locator("#messages b, #messages i").count()).toBe(0);
    const seen = (await page.evaluate("window.seenTexts")) as string[];
    const partial = seen.filter((text) => text !== "" && text !== reply);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) expect(reply.startsWith(text)).toBe(true);
    expect(await page.isHidden("#abort")).toBe(true);
  });

  it("shows the session's history after a reload (token kept for the tab)", async () => {
    await page.reload();
    await page.waitForSelector("#chat:not([hidden])");
    await expect.poll(() => messageTexts(page, "assistant")).toHaveLength(1);
    expect(await messageTexts(page, "user")).toEqual(["hello <i>there</i>"]);
  });

  it("stops a hanging run with the abort button", async () => {
    box.fake.hang();
    await sendMessage(page, "this will hang");
    await page.waitForSelector("#abort:not([hidden])");
    await expect.poll(() => box.fake.chatRequests.length).toBe(2);
    await page.click("#abort");
    const stopped = page.locator("#messages li.assistant.failed");
    await expect.poll(() => stopped.textContent()).toContain("stopped");
    await page.waitForSelector("#abort", { state: "hidden" });
    expect(box.gw.core.runs.active()).toHaveLength(0);
  });

  it("shows only the chosen agent's session history", async () => {
    await page.selectOption("#agent-picker", "helper");
    await expect.poll(() => page.inputValue("#session-picker")).toBe("agent:helper:main");
    await expect.poll(() => page.locator("#messages li").count()).toBe(0);
    box.fake.text("helper answer", { chunks: 2, delayMs: 20 });
    await sendMessage(page, "hi helper");
    await page.waitForSelector("#messages li.assistant:not(.streaming)");
    expect(await messageTexts(page, "assistant")).toEqual(["helper answer"]);
    await page.selectOption("#agent-picker", "main");
    await expect.poll(() => messageTexts(page, "user")).toContain("hello <i>there</i>");
    expect(await messageTexts(page, "user")).not.toContain("hi helper");
    expect(await messageTexts(page, "assistant")).not.toContain("helper answer");
    await page.selectOption("#agent-picker", "helper");
    await expect.poll(() => messageTexts(page, "user")).toEqual(["hi helper"]);
  });

  it("takes a #token= from the address once and strips it", async () => {
    const fresh = await browser.newPage();
    try {
      await fresh.goto(`${base}/#token=${TEST_TOKEN}`);
      await fresh.waitForSelector("#chat:not([hidden])");
      expect(new URL(fresh.url()).hash).toBe("");
    } finally {
      await fresh.close();
    }
  });

  it("serves its favicon as SVG under the strict policy", async () => {
    const href = await page.getAttribute('link[rel="icon"]', "href");
    expect(href).toBe("/favicon.svg");
    const res = await fetch(new URL(href ?? "", base));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("renders the assistant's Markdown as elements, and no HTML or script from it", async () => {
    const reply = [
      "## Steps",
      "Use `npm <run>` **now**, *carefully*; see [the docs](https://example.com/docs).",
      "",
      "- first",
      "- second",
      "",
      "```html",
      '<img src=x onerror="window.pwned=1">',
      "```",
      '<img src=x onerror="window.pwned=2"> [click](javascript:window.pwned=3)',
    ].join("\n");
    box.fake.text(reply, { chunks: 4, delayMs: 20 });
    await sendMessage(page, "markdown please");
    const bubble = page.locator("#messages li.assistant:not(.streaming)").last();
    await expect.poll(() => bubble.locator("h2").textContent()).toBe("Steps");
    expect(await bubble.locator("p code").first().textContent()).toBe("npm <run>");
    expect(await bubble.locator("strong").textContent()).toBe("now");
    expect(await bubble.locator("em").textContent()).toBe("carefully");
    expect(await bubble.locator("ul > li").allTextContents()).toEqual(["first", "second"]);
    expect(await bubble.locator("pre > code").textContent()).toBe(
      '<img src=x onerror="window.pwned=1">',
    );
    const links = bubble.locator("a");
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute("href")).toBe("https://example.com/docs");
    expect(await links.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await links.getAttribute("target")).toBe("_blank");
    expect(await page.locator("#messages img, #messages script").count()).toBe(0);
    expect(await bubble.textContent()).toContain("[click](javascript:window.pwned=3)");
    expect(await page.evaluate("window.pwned")).toBeUndefined();
  });

  it("shows a turn whose model call fails as failed, with the error, live and from history", async () => {
    box.fake.status(500);
    await sendMessage(page, "this one fails");
    const failed = page.locator("#messages li.assistant.failed").last();
    await expect.poll(() => failed.textContent(), { timeout: 15_000 }).toMatch(/failed: .*\S/);
    expect(await failed.getAttribute("data-end")).toBe("error");
    expect(await messageTexts(page, "user")).toContain("this one fails");
    expect(await page.isHidden("#abort")).toBe(true);
    // From history too: the stored turn carries stopReason "error" and the error text.
    await page.reload();
    await page.waitForSelector("#chat:not([hidden])");
    const stored = page.locator("#messages li.assistant.failed").last();
    await expect.poll(() => stored.textContent()).toMatch(/failed: .*\S/);
    expect(await stored.getAttribute("data-end")).toBe("error");
    expect((await messageTexts(page, "user")).at(-1)).toBe("this one fails");
  });

  it("scrolls the message list (not the page) and sticks to the newest message", async () => {
    await runTurns(box, "agent:main:long", 50);
    await page.selectOption("#agent-picker", "main");
    await expect
      .poll(() => page.locator('#session-picker option[value="agent:main:long"]').count())
      .toBe(1);
    await page.selectOption("#session-picker", "agent:main:long");
    await expect.poll(() => page.locator("#messages li").count()).toBe(100);
    let scroll = await listScroll(page);
    expect(scroll.scrollHeight).toBeGreaterThan(scroll.clientHeight);
    expect(scroll.pageOverflows).toBe(false);
    expect(atBottom(scroll)).toBe(true);
    expect(scroll.lastVisible).toBe(true);

    box.fake.text(Array.from({ length: 12 }, (_, n) => `streamed line ${n}`).join("\n\n"), {
      chunks: 6,
      delayMs: 40,
    });
    await sendMessage(page, "one more");
    await page.waitForSelector("#messages li.assistant.streaming");
    await page.waitForSelector("#messages li.assistant:not(.streaming) >> text=streamed line 11");
    scroll = await listScroll(page);
    expect(atBottom(scroll)).toBe(true);
    expect(scroll.lastVisible).toBe(true);

    await page.evaluate(`document.getElementById("messages").scrollTop = 0`);
    await runTurns(box, "agent:main:long", 1);
    await expect.poll(() => page.locator("#messages li").count()).toBe(103);
    scroll = await listScroll(page);
    expect(scroll.scrollTop).toBe(0);
    expect(scroll.pageOverflows).toBe(false);
  });

  it("keeps typed text across a gateway restart and refuses to send it while disconnected", async () => {
    await page.selectOption("#agent-picker", "helper");
    await expect.poll(() => messageTexts(page, "user")).toContain("hi helper");
    const users = (await messageTexts(page, "user")).length;
    await box.gw.close("restart for the test");
    await expect.poll(() => page.textContent("#status")).toMatch(/Disconnected — reconnecting/);
    expect(await page.textContent("#error")).toContain("Disconnected from the gateway");
    await page.fill("#message-input", "typed while away");
    await page.click("#send");
    await expect.poll(() => page.textContent("#error")).toContain("Not connected");
    expect(await page.inputValue("#message-input")).toBe("typed while away");
    expect(await messageTexts(page, "user")).toHaveLength(users);
    restarted = await startGateway({ env: box.env, port: box.gw.port, watchConfig: false, uiDir });
    await expect.poll(() => page.textContent("#status"), { timeout: 10_000 }).toBe("Connected");
    expect(await page.isVisible("#error")).toBe(false);
    await expect.poll(() => messageTexts(page, "user")).toContain("hi helper");
    expect(await page.inputValue("#message-input")).toBe("typed while away");
    await page.reload();
    await page.waitForSelector("#chat:not([hidden])");
    expect(await page.inputValue("#message-input")).toBe("typed while away");
    box.fake.text("welcome back");
    await page.click("#send");
    await expect.poll(() => messageTexts(page, "assistant")).toContain("welcome back");
    expect(await messageTexts(page, "user")).toContain("typed while away");
    expect(await page.inputValue("#message-input")).toBe("");
  });

  it("lists a session another client starts, live (it subscribed to sessions.changed)", async () => {
    await page.selectOption("#agent-picker", "main");
    await expect.poll(() => page.inputValue("#session-picker")).toBe("agent:main:main");
    const other = page.locator('#session-picker option[value="agent:main:other-device"]');
    expect(await other.count()).toBe(0);
    await runTurns(box, "agent:main:other-device", 1);
    await expect.poll(() => other.count(), { timeout: 10_000 }).toBe(1);
  });
});
