// kill -9 in the middle of a turn loses nothing that was written: the built CLI is killed while the
// model hangs, then the next run takes over the dead process's lock and the session carries on.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { fakeCliConfigText } from "./helpers/runtime-sandbox.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await fake.close();
});

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("crash safety", () => {
  it("survives kill -9 mid-turn: transcript intact, lock taken over, next turn works", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(fakeCliConfigText(sb.home, fake.baseUrl));
    fake.hang();
    const child = spawn(
      process.execPath,
      [bin, "agent", "--local", "-m", "remember the number 42"],
      {
        env: { PATH: process.env.PATH, ...sb.env },
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await waitFor(() => fake.chatRequests.length === 1);
    child.kill("SIGKILL");
    await exited;

    const shown = await sb.run(["sessions", "show", "main"]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("remember the number 42");

    fake.text("I remember: 42");
    const next = await sb.run(["agent", "--local", "-m", "what number?", "--json"]);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).payloads[0].text).toBe("I remember: 42");
    const body = fake.chatRequests.at(-1)?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    expect(JSON.stringify(body.messages)).toContain("remember the number 42");
  });
});
