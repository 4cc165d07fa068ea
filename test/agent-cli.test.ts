// `pincer agent --local`: one embedded turn through the real command tree against the fake server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { fakeCliConfigText } from "./helpers/runtime-sandbox.js";

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await fake.close();
});

function sandbox() {
  const sb = createCliSandbox();
  sb.writeConfig(fakeCliConfigText(sb.home, fake.baseUrl));
  return sb;
}

describe("pincer agent --local", () => {
  it("streams the reply and keeps the session", async () => {
    const sb = sandbox();
    fake.text("Hi <think>hmm</think>from Pincer", { chunks: 4 });
    const res = await sb.run(["agent", "--local", "-m", "hello"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Hi from Pincer\n");
    const sessions = JSON.parse((await sb.run(["sessions", "--json"])).stdout);
    expect(JSON.stringify(sessions)).toContain("agent:main:main");
    const shown = await sb.run(["sessions", "show", "main"]);
    expect(shown.stdout).toContain("hello");
  });

  it("prints the result as JSON", async () => {
    const sb = sandbox();
    fake.text("pong");
    const res = await sb.run([
      "agent",
      "--local",
      "--session-key",
      "agent:main:ops",
      "-m",
      "ping",
      "--json",
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      agentId: "main",
      sessionKey: "agent:main:ops",
      status: "ok",
      payloads: [{ text: "pong" }],
      model: "m1",
    });
  });

  it("exits 1 when the model fails, 2 on bad usage", async () => {
    const sb = sandbox();
    fake.status(401, { error: { message: "invalid api key" } });
    const res = await sb.run(["agent", "--local", "-m", "hi"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("run error");
    expect((await sb.run(["agent", "--local"])).code).toBe(2);
    // Without --local the turn goes to the gateway; none listens on this port.
    const offline = await sb.run(["agent", "-m", "hi", "--url", "ws://127.0.0.1:1"]);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain("--local");
    expect((await sb.run(["agent", "--local", "-m", "hi", "--timeout", "soon"])).code).toBe(2);
  });
});
