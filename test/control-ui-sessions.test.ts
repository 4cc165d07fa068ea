// The Control UI's Sessions page in headless Chromium against a real gateway: 120 prepared sessions
// plus one with a real conversation; find it by search and reset it, sort by a column, page through,
// delete one (after confirming), save overrides. Screenshots at 390 and 1280 px.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
} from "./helpers/control-ui.js";
import { type Loose, payloadOf, type TestClient } from "./helpers/gateway-sandbox.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);

const PREPARED = 120;
const T0 = Date.now() - 3_600_000;
const storeRoot = mkdtempSync(join(tmpdir(), "pincer-ui-sessions-store-"));

function prepareStore(): void {
  const rows: Record<string, unknown> = {};
  for (let i = 0; i < PREPARED; i++) {
    rows[`agent:main:telegram:direct:user-${String(i).padStart(3, "0")}`] = {
      sessionId: `prepared-${i}`,
      updatedAt: T0 + i * 1000,
      lastChannel: i % 2 ? "telegram" : "whatsapp",
      totalTokens: (i * 37) % 1000,
      model: "m1",
      modelProvider: "fake",
    };
  }
  mkdirSync(join(storeRoot, "main"), { recursive: true });
  writeFileSync(join(storeRoot, "main", "sessions.json"), JSON.stringify(rows));
}

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI: Sessions page", () => {
  let ui: ControlUi;
  let client: TestClient;
  let page: Page;

  const entry = async (key: string): Promise<Loose | undefined> => {
    const listed = payloadOf(await client.request("sessions.list", { search: key, limit: 5 }));
    return listed.sessions.find((row: Loose) => row.key === key);
  };
  const rowKeys = () =>
    page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-key")));

  beforeAll(async () => {
    prepareStore();
    ui = await startControlUi({
      config: () => ({
        agents: { list: [{ id: "main" }, { id: "work" }] },
        session: { store: join(storeRoot, "{agentId}", "sessions.json") },
      }),
    });
    const box = ui.box;
    client = await box.connect();
    // One session with a real conversation, for the preview and the reset.
    box.fake.text("Hello from the **fake** model");
    const runId = randomUUID();
    await client.request("chat.send", {
      sessionKey: "findme",
      message: "hello findme",
      idempotencyKey: runId,
    });
    const done = await client.request("agent.wait", { runId, timeoutMs: 10_000 }, 15_000);
    expect(payloadOf(done).status).toBe("ok");
    page = await ui.open("#/sessions");
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    rmSync(storeRoot, { recursive: true, force: true });
  });

  it("shows the first page of every session, newest first, with the total", async () => {
    await page.waitForSelector("tbody tr");
    const total = PREPARED + 1;
    await expect.poll(() => page.textContent(".page-range")).toBe(`1–50 of ${total}`);
    expect(await page.locator("tbody tr").count()).toBe(50);
    expect((await rowKeys())[0]).toBe("agent:main:findme");
    expect(await page.getAttribute("th:has(button:has-text('Last activity'))", "aria-sort")).toBe(
      "descending",
    );
  });

  it("sorts by a column, both ways", async () => {
    await page.click("th button:has-text('Tokens')");
    await expect
      .poll(() => page.getAttribute("th:has(button:has-text('Tokens'))", "aria-sort"))
      .toBe("descending");
    const top = payloadOf(
      await client.request("sessions.list", { sort: "tokens", order: "desc", limit: 3 }),
    );
    await expect
      .poll(rowKeys)
      .toEqual(expect.arrayContaining(top.sessions.map((row: Loose) => row.key)));
    expect((await rowKeys()).slice(0, 3)).toEqual(top.sessions.map((row: Loose) => row.key));
    await page.click("th button:has-text('Tokens')");
    await expect
      .poll(() => page.getAttribute("th:has(button:has-text('Tokens'))", "aria-sort"))
      .toBe("ascending");
    const low = payloadOf(
      await client.request("sessions.list", { sort: "tokens", order: "asc", limit: 3 }),
    );
    await expect
      .poll(async () => (await rowKeys()).slice(0, 3))
      .toEqual(low.sessions.map((row: Loose) => row.key));
    expect(page.url()).toContain("sort=tokens");
  });

  it("pages through, the address following", async () => {
    const first = await rowKeys();
    await page.click("button:text-is('Next')");
    await expect.poll(() => page.textContent(".page-range")).toBe(`51–100 of ${PREPARED + 1}`);
    const second = await rowKeys();
    expect(second).toHaveLength(50);
    expect(second.filter((key) => first.includes(key))).toEqual([]);
    expect(page.url()).toContain("offset=50");
    await page.click("button:text-is('Next')");
    await expect.poll(() => page.textContent(".page-range")).toBe(`101–121 of ${PREPARED + 1}`);
    expect(await page.isDisabled("button:text-is('Next')")).toBe(true);
    await page.click("button:text-is('Previous')");
    await expect.poll(() => page.textContent(".page-range")).toBe(`51–100 of ${PREPARED + 1}`);
    // Back in the browser shows the page the address had before.
    await page.goBack();
    await expect.poll(() => page.textContent(".page-range")).toBe(`101–121 of ${PREPARED + 1}`);
  });

  it("finds a session by search, previews it and resets it", async () => {
    const before = await entry("agent:main:findme");
    await page.fill("input[type=search]", "findme");
    await page.press("input[type=search]", "Enter");
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    expect(await page.textContent(".page-range")).toBe("1–1 of 1");
    await page.click("button.session-key");
    await expect.poll(() => page.textContent(".preview")).toContain("hello findme");
    expect(await page.textContent(".preview")).toContain("Hello from the **fake** model");
    await screenshot(page, "sessions");
    await page.click("button:text-is('Reset')");
    await expect
      .poll(() => page.textContent("[role=status].notice"))
      .toContain("Reset agent:main:findme");
    const after = await entry("agent:main:findme");
    expect(after?.sessionId).toBeDefined();
    expect(after?.sessionId).not.toBe(before?.sessionId);
    await expect.poll(() => page.textContent(".session-detail")).toContain("No messages yet.");
  });

  it("saves per-session overrides through sessions.patch", async () => {
    await page.selectOption("select[name=thinkingLevel]", "low");
    await page.selectOption("select[name=queueMode]", "interrupt");
    await page.click("button:text-is('Save overrides')");
    await expect
      .poll(() => page.textContent("[role=status].notice"))
      .toContain("Saved the overrides");
    expect(await entry("agent:main:findme")).toMatchObject({
      thinkingLevel: "low",
      queueMode: "interrupt",
    });
    expect(await page.inputValue("select[name=thinkingLevel]")).toBe("low");
  });

  it("deletes a session only after confirming", async () => {
    const key = "agent:main:telegram:direct:user-007";
    await page.fill("input[type=search]", "user-007");
    await page.press("input[type=search]", "Enter");
    await expect.poll(rowKeys).toEqual([key]);
    await page.click("button.session-key");
    await page.click("button:text-is('Delete…')");
    expect(await entry(key)).toBeDefined();
    await page.click("button:text-is('Cancel')");
    await page.click("button:text-is('Delete…')");
    await page.click("button:text-is('Confirm delete')");
    await expect.poll(() => page.textContent("[role=status].notice")).toContain(`Deleted ${key}`);
    expect(await entry(key)).toBeUndefined();
    await expect.poll(() => page.textContent(".sessions-list")).toContain("No sessions match.");
  });

  it("is usable at 390 px", async () => {
    const phone = await ui.open("#/sessions?q=findme", { width: 390 });
    await phone.waitForSelector("tbody tr");
    await phone.click("button.session-key");
    await phone.waitForSelector(".session-detail");
    const overflow = await phone.evaluate(
      "document.documentElement.scrollWidth > window.innerWidth + 1",
    );
    expect(overflow).toBe(false);
    await phone.close();
  });
});
