// The Control UI's Agents page in headless Chromium against a real gateway: the roster with its
// bindings, the route tester's answer (agent, session key, tier), and SOUL.md edited and saved to
// disk. Screenshots at 390 and 1280 px.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTROL_UI_SKIP,
  type ControlUi,
  screenshot,
  startControlUi,
} from "./helpers/control-ui.js";
import { payloadOf } from "./helpers/gateway-sandbox.js";

if (CONTROL_UI_SKIP) console.warn(`\n${CONTROL_UI_SKIP}\n`);

describe.skipIf(CONTROL_UI_SKIP !== undefined)("Control UI: Agents page", () => {
  let ui: ControlUi;
  let page: Page;

  beforeAll(async () => {
    ui = await startControlUi({
      config: () => ({
        agents: {
          list: [
            { id: "main", name: "Pinchy" },
            { id: "work", sandbox: { mode: "all" } },
          ],
        },
        bindings: [
          { agentId: "work", match: { channel: "telegram", peer: { kind: "direct", id: "42" } } },
          { agentId: "work", match: { channel: "discord", guildId: "g1" }, comment: "ops guild" },
        ],
      }),
    });
    page = await ui.open("#/agents");
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  it("shows the roster with each agent's bindings", async () => {
    await page.waitForSelector("article.agent-card[data-agent=work]");
    const work = page.locator("article.agent-card[data-agent=work]");
    expect(await work.textContent()).toContain("telegram default account peer=direct:42");
    expect(await work.textContent()).toContain("ops guild");
    expect(await work.textContent()).toContain("host tools sandboxed");
    expect(await page.textContent("article.agent-card[data-agent=main] h2")).toContain("default");
  });

  it("answers the route tester like pincer agents route", async () => {
    await page.fill("input[name=channel]", "telegram");
    await page.selectOption("select[name=peerKind]", "direct");
    await page.fill("input[name=peerId]", "42");
    await page.click("button:text-is('Test route')");
    await expect.poll(() => page.textContent(".route-agent")).toBe("work");
    expect(await page.textContent(".route-session")).toBe("agent:work:main");
    expect(await page.textContent(".route-tier")).toBe("binding.peer (bindings[0])");
    await page.fill("input[name=peerId]", "7");
    await page.click("button:text-is('Test route')");
    await expect.poll(() => page.textContent(".route-agent")).toBe("main");
    expect(await page.textContent(".route-tier")).toBe("default");
  });

  it("edits SOUL.md and saves it to the workspace", async () => {
    await page.click(".file-list button:text-is('SOUL.md')");
    await page.waitForSelector("textarea#agent-file-text");
    const content = "# SOUL.md\n\nCalm, precise, a little dry.\n";
    await page.fill("textarea#agent-file-text", content);
    expect(await page.textContent(".file-editor")).toContain("unsaved changes");
    await page.click("button:text-is('Save SOUL.md')");
    await expect.poll(() => page.textContent(".agent-files [role=status]")).toBe("Saved SOUL.md.");
    const listed = payloadOf(
      await (await ui.box.connect()).request("agents.files.list", { agentId: "main" }),
    );
    expect(readFileSync(join(listed.workspace, "SOUL.md"), "utf8")).toBe(content);
    expect(await page.textContent(".file-editor")).not.toContain("unsaved changes");
    await screenshot(page, "agents");
  });

  it("opens another agent's files from its card and the address", async () => {
    await page.click("article.agent-card[data-agent=work] button:has-text('Files of work')");
    await expect.poll(() => page.textContent("#agent-files-title")).toBe("Bootstrap files of work");
    expect(page.url()).toContain("agent=work");
    const phone = await ui.open("#/agents?agent=work", { width: 390 });
    await expect
      .poll(() => phone.textContent("#agent-files-title"))
      .toBe("Bootstrap files of work");
    await phone.click(".file-list button:text-is('AGENTS.md')");
    await phone.waitForSelector("textarea#agent-file-text");
    const overflow = await phone.evaluate(
      "document.documentElement.scrollWidth > window.innerWidth + 1",
    );
    expect(overflow).toBe(false);
    await screenshot(phone, "agents-work-files");
    await phone.close();
  });
});
