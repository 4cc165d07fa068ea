// The Control UI's Chat page end to end in headless Chromium (test/helpers/control-ui.ts) against a
// real gateway whose model is the scripted fake (slow streams for deltas, a hang for Stop, tool
// calls): WebChat's cases, kept, plus tool calls, the run's activity, New session and times.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
} from "./helpers/control-ui.js";
import { payloadOf } from "./helpers/gateway-sandbox.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);

/** Records every text the assistant bubbles show, in `window.seenTexts`, as they change. */
const RECORD_ASSISTANT_TEXTS = `(() => {
  const seen = [];
  window.seenTexts = seen;
  const list = document.getElementById("messages");
  new MutationObserver(() => {
    for (const item of list.querySelectorAll("li.assistant .body")) seen.push(item.textContent ?? "");
  }).observe(list, { childList: true, subtree: true, characterData: true });
})()`;

async function messageTexts(page: Page, role: "user" | "assistant"): Promise<string[]> {
  const texts = await page.locator(`#messages li.${role} > .body`).allTextContents();
  return texts.map((text) => text.trim());
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

async function sendMessage(page: Page, text: string): Promise<void> {
  await page.fill("#message-input", text);
  await page.click("#send");
}

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI Chat in headless Chromium", () => {
  let ui: ControlUi;
  let page: Page;
  let restarted: GatewayHandle | undefined;

  /** Runs `turns` chat turns in `sessionKey` from a separate protocol client (another device). */
  async function runTurns(sessionKey: string, turns: number): Promise<void> {
    const client = await ui.box.connect();
    try {
      for (let turn = 1; turn <= turns; turn++) {
        ui.box.fake.text(`reply ${turn}\nwith a second line`);
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

  beforeAll(async () => {
    ui = await startControlUi({
      config: () => ({ agents: { list: [{ id: "main" }, { id: "helper", name: "Helper" }] } }),
    });
    page = await ui.open("#/chat", { width: 390 });
  }, 60_000);

  afterAll(async () => {
    // The restarted gateway writes into the sandbox's state dir: closed before the sandbox removes it.
    await restarted?.close();
    await ui?.close();
  });

  it("offers the agents, the default agent's main session selected", async () => {
    const agents = await page
      .locator("#agent-picker option")
      .evaluateAll((items) => items.map((item) => item.getAttribute("value")));
    expect(agents).toEqual(["main", "helper"]);
    await expect.poll(() => page.inputValue("#session-picker")).toBe("agent:main:main");
    expect(await page.isVisible("#chat-error")).toBe(false);
  });

  it("streams the reply as deltas arrive, then shows the final, thinking shown before text", async () => {
    const reply = "Streaming <b>reply</b> arrives in several small pieces";
    ui.box.fake.latencyMs = 300;
    ui.box.fake.text(reply, { chunks: 6, delayMs: 120 });
    await page.evaluate(RECORD_ASSISTANT_TEXTS);
    await sendMessage(page, "hello <i>there</i>");
    await expect.poll(() => page.textContent("#activity")).toBe("thinking…");
    await page.waitForSelector("#messages li.assistant.streaming");
    await page.waitForSelector("#messages li.assistant:not(.streaming)");
    ui.box.fake.latencyMs = 0;
    expect(await messageTexts(page, "user")).toEqual(["hello <i>there</i>"]);
    expect(await messageTexts(page, "assistant")).toEqual([reply]);
    expect(await page.locator("#messages b, #messages i").count()).toBe(0);
    const seen = (await page.evaluate("window.seenTexts")) as string[];
    const partial = seen.map((text) => text.trim()).filter((text) => text !== "" && text !== reply);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) expect(reply.startsWith(text)).toBe(true);
    expect(await page.locator("#abort").count()).toBe(0);
    // Each message carries its time.
    const stamp = await page.locator("#messages li.user time").first().getAttribute("datetime");
    expect(Number.isNaN(Date.parse(stamp ?? ""))).toBe(false);
  });

  it("shows the session's history after a reload (token kept for the tab), with times", async () => {
    await page.reload();
    await expect.poll(() => messageTexts(page, "assistant")).toHaveLength(1);
    expect(await messageTexts(page, "user")).toEqual(["hello <i>there</i>"]);
    expect(await page.locator("#messages li time").count()).toBe(2);
  });

  it("stops a hanging run with Stop", async () => {
    ui.box.fake.hang();
    const before = ui.box.fake.chatRequests.length;
    await sendMessage(page, "this will hang");
    await page.waitForSelector("#abort");
    await expect.poll(() => ui.box.fake.chatRequests.length).toBe(before + 1);
    await page.click("#abort");
    const stopped = page.locator("#messages li.assistant.failed");
    await expect.poll(() => stopped.textContent()).toContain("stopped");
    await page.waitForSelector("#abort", { state: "detached" });
    expect(ui.box.gw.core.runs.active()).toHaveLength(0);
  });

  it("shows a tool call as a collapsible block, the activity naming the tool while it runs", async () => {
    mkdirSync(join(ui.box.home, "workspace"), { recursive: true });
    writeFileSync(join(ui.box.home, "workspace", "note.txt"), "a note for the tool");
    ui.box.fake.toolCall("read", { path: "note.txt" }, { delayMs: 50 }).text("Read **the** note.", {
      chunks: 2,
      delayMs: 200,
    });
    await page.evaluate(`(() => {
      window.seenActivity = [];
      const status = document.getElementById("activity");
      new MutationObserver(() => window.seenActivity.push(document.getElementById("activity")?.textContent ?? ""))
        .observe(document.querySelector("pc-chat-page"), { subtree: true, childList: true, characterData: true });
    })()`);
    await sendMessage(page, "read the note");
    const tool = page.locator("#messages li.tool").last();
    await tool.waitFor();
    await expect.poll(() => tool.getAttribute("data-state"), { timeout: 15_000 }).toBe("done");
    await expect
      .poll(() => page.locator("#messages li.assistant .body").last().textContent())
      .toBe("Read the note.");
    const activity = (await page.evaluate("window.seenActivity")) as string[];
    expect(activity).toContain("running tool read…");
    expect(await tool.locator("summary .tool-name").textContent()).toBe("read");
    expect(await tool.locator("details").getAttribute("open")).toBeNull();
    await tool.locator("summary").click();
    expect(await tool.locator("details").getAttribute("open")).toBe("");
    expect(await tool.locator("pre").first().textContent()).toContain('"path": "note.txt"');
    // The result comes from the transcript once the run is over.
    await expect
      .poll(() => tool.locator("pre.result").textContent())
      .toContain("a note for the tool");
    await screenshot(page, "chat");
  });

  it("shows only the chosen agent's session history", async () => {
    await page.selectOption("#agent-picker", "helper");
    await expect.poll(() => page.inputValue("#session-picker")).toBe("agent:helper:main");
    await expect.poll(() => page.locator("#messages li").count()).toBe(0);
    ui.box.fake.text("helper answer", { chunks: 2, delayMs: 20 });
    await sendMessage(page, "hi helper");
    await page.waitForSelector("#messages li.assistant:not(.streaming)");
    expect(await messageTexts(page, "assistant")).toEqual(["helper answer"]);
    await page.selectOption("#agent-picker", "main");
    await expect.poll(() => messageTexts(page, "user")).toContain("hello <i>there</i>");
    expect(await messageTexts(page, "user")).not.toContain("hi helper");
    expect(await messageTexts(page, "assistant")).not.toContain("helper answer");
    await page.selectOption("#agent-picker", "helper");
    await expect.poll(() => messageTexts(page, "user")).toEqual(["hi helper"]);
    // The choice is in the address: a deep link.
    expect(new URL(page.url()).hash).toBe("#/chat?agent=helper&session=agent%3Ahelper%3Amain");
  });

  it("renders the assistant's Markdown as elements with a Copy button, and no HTML or script from it", async () => {
    await page.selectOption("#agent-picker", "main");
    await expect.poll(() => page.inputValue("#session-picker")).toBe("agent:main:main");
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
    ui.box.fake.text(reply, { chunks: 4, delayMs: 20 });
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
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const copy = bubble.getByRole("button", { name: "Copy code" });
    await copy.click();
    await expect.poll(() => copy.textContent()).toContain("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(
      '<img src=x onerror="window.pwned=1">',
    );
  });

  it("shows a turn whose model call fails as failed, with the error, live and from history", async () => {
    ui.box.fake.status(500);
    await sendMessage(page, "this one fails");
    const failed = page.locator("#messages li.assistant.failed").last();
    await expect.poll(() => failed.textContent(), { timeout: 15_000 }).toMatch(/failed: .*\S/);
    expect(await failed.getAttribute("data-end")).toBe("error");
    expect(await messageTexts(page, "user")).toContain("this one fails");
    expect(await page.locator("#abort").count()).toBe(0);
    await page.reload();
    const stored = page.locator("#messages li.assistant.failed").last();
    await expect.poll(() => stored.textContent()).toMatch(/failed: .*\S/);
    expect(await stored.getAttribute("data-end")).toBe("error");
    expect((await messageTexts(page, "user")).at(-1)).toBe("this one fails");
  });

  it("scrolls the message list (not the page) and sticks to the newest message", async () => {
    await runTurns("agent:main:long", 50);
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

    ui.box.fake.text(Array.from({ length: 12 }, (_, n) => `streamed line ${n}`).join("\n\n"), {
      chunks: 6,
      delayMs: 40,
    });
    await sendMessage(page, "one more");
    await page.waitForSelector("#messages li.assistant.streaming");
    await page.waitForSelector("#messages li.assistant:not(.streaming) >> text=streamed line 11");
    scroll = await listScroll(page);
    expect(atBottom(scroll)).toBe(true);
    expect(scroll.lastVisible).toBe(true);
    await screenshot(page, "chat-long");

    await page.evaluate(`document.getElementById("messages").scrollTop = 0`);
    await runTurns("agent:main:long", 1);
    await expect.poll(() => page.locator("#messages li").count()).toBe(103);
    scroll = await listScroll(page);
    expect(scroll.scrollTop).toBe(0);
    expect(scroll.pageOverflows).toBe(false);
  });

  it("starts a new session with New session (sessions.reset): the history is empty", async () => {
    expect(await page.locator("#messages li").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "New session" }).click();
    await expect.poll(() => page.locator("#messages li").count()).toBe(0);
    const client = await ui.box.connect();
    try {
      const history = await client.request("chat.history", { sessionKey: "agent:main:long" });
      expect(payloadOf(history).messages).toEqual([]);
    } finally {
      client.close();
    }
  });

  it("keeps typed text across a gateway restart and refuses to send it while disconnected", async () => {
    await page.selectOption("#agent-picker", "helper");
    await expect.poll(() => messageTexts(page, "user")).toContain("hi helper");
    const users = (await messageTexts(page, "user")).length;
    await ui.box.gw.close("restart for the test");
    await expect.poll(() => page.textContent("#status")).toMatch(/Disconnected — reconnecting/);
    expect(await page.textContent("#connection-error")).toContain("Disconnected from the gateway");
    await page.fill("#message-input", "typed while away");
    await page.click("#send");
    await expect.poll(() => page.textContent("#chat-error")).toContain("Not connected");
    expect(await page.inputValue("#message-input")).toBe("typed while away");
    expect(await messageTexts(page, "user")).toHaveLength(users);
    restarted = await startGateway({
      env: ui.box.env,
      port: ui.box.gw.port,
      watchConfig: false,
      uiDir: ui.uiDir,
    });
    await expect.poll(() => page.textContent("#status"), { timeout: 10_000 }).toBe("Connected");
    expect(await page.isVisible("#connection-error")).toBe(false);
    await expect.poll(() => messageTexts(page, "user")).toContain("hi helper");
    expect(await page.inputValue("#message-input")).toBe("typed while away");
    await page.reload();
    await page.waitForSelector("#message-input");
    expect(await page.inputValue("#message-input")).toBe("typed while away");
    ui.box.fake.text("welcome back");
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
    await runTurns("agent:main:other-device", 1);
    await expect.poll(() => other.count(), { timeout: 10_000 }).toBe(1);
  });
});
