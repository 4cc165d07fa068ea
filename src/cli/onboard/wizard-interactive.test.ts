// The wizard driven for real: `pincer onboard` / `pincer configure` through runCli on a fake terminal
// (a TTY-like stdin taking keystrokes, a recording stdout), with a fake Telegram Bot API for the probe.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import JSON5 from "json5";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { type FakeTelegram, startFakeTelegram } from "../../../test/helpers/fake-telegram.js";
import {
  createFakeTerminal,
  type FakeTerminal,
  KEY,
  runOnTerminal,
} from "../../../test/helpers/fake-terminal.js";
import { loadConfig } from "../../config/index.js";

const SECRET = "sk-ant-typed-0123456789";
const BOT = "123456789:AAHgoodgoodgoodgoodgoodgoodgood01";

/** Answers the onboard questions of a fresh state dir up to (not including) the final confirm. */
async function answerFreshOnboard(term: FakeTerminal): Promise<void> {
  await term.waitFor("Model provider");
  term.type(KEY.enter); // anthropic, preselected
  await term.waitFor("Model (");
  term.type(KEY.enter); // claude-opus-4-6, preselected
  await term.waitFor("API key");
  term.type(KEY.enter); // paste a key now
  await term.waitFor("anthropic API key");
  term.type(`${SECRET}${KEY.enter}`);
  await term.waitFor("Workspace folder");
  term.type(KEY.enter); // keep ~/.openclaw/workspace
  await term.waitFor("Connect a chat channel");
  term.type(`${KEY.down}${KEY.enter}`); // not now
  await term.waitFor("Write this to");
}

describe("pincer onboard on a terminal", () => {
  it("asks model, key (masked), workspace and channel, then writes config, auth profile and workspace", async () => {
    const sb = createCliSandbox();
    const term = createFakeTerminal();
    const done = runOnTerminal(["onboard"], { env: sb.env, term });
    await term.waitFor("with your user's rights");
    await answerFreshOnboard(term);
    term.type(KEY.enter);
    const res = await done;
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(term.screen()).not.toContain(SECRET);
    const cfg = JSON5.parse(readFileSync(sb.configPath, "utf8"));
    expect(cfg.agents.defaults.model).toEqual({ primary: "anthropic/claude-opus-4-6" });
    expect(cfg.gateway).toMatchObject({ mode: "local", port: 18789, bind: "loopback" });
    expect(cfg.gateway.auth.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cfg.channels).toBeUndefined();
    expect(JSON.stringify(cfg)).not.toContain(SECRET);
    expect(loadConfig({ env: sb.env }).issues.filter((i) => i.severity === "error")).toEqual([]);
    const store = JSON.parse(
      readFileSync(join(sb.stateDir, "agents/main/agent/auth-profiles.json"), "utf8"),
    );
    expect(store.profiles["anthropic:default"]).toEqual({
      type: "api_key",
      provider: "anthropic",
      key: SECRET,
    });
    expect(existsSync(join(sb.stateDir, "workspace", "AGENTS.md"))).toBe(true);
    expect(res.stdout).toContain("http://127.0.0.1:18789/");
    expect(res.stdout).toContain("pincer gateway");
  });

  it("takes --workspace as the offered folder and asks no channel question with --skip-channels", async () => {
    const sb = createCliSandbox();
    const term = createFakeTerminal();
    const done = runOnTerminal(["onboard", "--skip-channels", "--workspace", "~/bot-files"], {
      env: sb.env,
      term,
    });
    await term.waitFor("Model provider");
    term.type(`zzz${KEY.enter}`); // a filter matching nothing is refused, not submitted empty
    await term.waitFor("nothing matches what you typed");
    term.type(`${KEY.backspace.repeat(3)}anthro${KEY.enter}`);
    await term.waitFor("from anthropic; type to filter");
    term.type(KEY.enter);
    await term.waitFor("API key");
    await term.waitFor("Skip for now");
    term.type(`${KEY.down}${KEY.down}${KEY.enter}`); // paste, $ANTHROPIC_API_KEY, skip for now
    await term.waitFor("Workspace folder");
    await term.waitFor("~/bot-files");
    term.type(KEY.enter);
    await term.waitFor("Write this to");
    expect(term.screen()).not.toContain("Connect a chat channel");
    term.type(KEY.enter);
    const res = await done;
    expect(res.code).toBe(0);
    const cfg = JSON5.parse(readFileSync(sb.configPath, "utf8"));
    expect(cfg.agents.defaults.workspace).toBe("~/bot-files");
    expect(existsSync(join(sb.home, "bot-files", "AGENTS.md"))).toBe(true);
    expect(existsSync(join(sb.stateDir, "agents/main/agent/auth-profiles.json"))).toBe(false);
  });

  // Each way of stopping, at a different step: nothing at all may be written.
  const stops: Array<[string, (term: FakeTerminal) => Promise<void>]> = [
    [
      "Ctrl-C at the provider",
      async (t) => {
        await t.waitFor("Model provider");
        t.type(KEY.ctrlC);
      },
    ],
    [
      "Ctrl-C while typing the key",
      async (t) => {
        await t.waitFor("Model provider");
        t.type(KEY.enter);
        await t.waitFor("Model (");
        t.type(KEY.enter);
        await t.waitFor("API key");
        t.type(KEY.enter);
        await t.waitFor("anthropic API key");
        t.type(`sk-half${KEY.ctrlC}`);
      },
    ],
    [
      "Ctrl-C at the channel",
      async (t) => {
        await t.waitFor("Model provider");
        t.type(KEY.enter);
        await t.waitFor("Model (");
        t.type(KEY.enter);
        await t.waitFor("API key");
        t.type(KEY.enter);
        await t.waitFor("anthropic API key");
        t.type(`${SECRET}${KEY.enter}`);
        await t.waitFor("Workspace folder");
        t.type(KEY.enter);
        await t.waitFor("Connect a chat channel");
        t.type(KEY.ctrlC);
      },
    ],
    [
      "No at the final question",
      async (t) => {
        await answerFreshOnboard(t);
        t.type(`${KEY.down}${KEY.enter}`);
      },
    ],
  ];
  for (const [what, stop] of stops) {
    it(`writes nothing after ${what}`, async () => {
      const sb = createCliSandbox();
      const term = createFakeTerminal();
      const done = runOnTerminal(["onboard"], { env: sb.env, term });
      await stop(term);
      const res = await done;
      expect(res.code).toBe(1);
      await term.waitFor("Cancelled: nothing was written.");
      expect(existsSync(sb.stateDir)).toBe(false);
    });
  }
});

describe("pincer configure on a terminal", () => {
  it("leaves the file alone (no backup, no run record) when every answer keeps the current value", async () => {
    const sb = createCliSandbox();
    const original = '// mine\n{ agents: { defaults: { model: "openai/gpt-5.5" } } }\n';
    sb.writeConfig(original);
    const term = createFakeTerminal();
    const done = runOnTerminal(["configure", "--section", "model"], { env: sb.env, term });
    await term.waitFor("Model provider");
    term.type(`Keep${KEY.enter}`); // "Keep openai/gpt-5.5"
    const res = await done;
    expect(res.code).toBe(0);
    await term.waitFor("Nothing to change");
    expect(readFileSync(sb.configPath, "utf8")).toBe(original);
    expect(existsSync(`${sb.configPath}.bak`)).toBe(false);
  });

  let telegram: FakeTelegram | undefined;
  afterEach(async () => {
    await telegram?.close();
    telegram = undefined;
  });

  it("re-runs gateway and channels prefilled; keeps comments, other keys and the token; probes the bot", async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(BOT, { id: 42, username: "pincer_test_bot" });
    const sb = createCliSandbox();
    const original = `// hand-written, keep me
{
  gateway: {
    port: 18800, // my port
    auth: { mode: "token", token: "kept-token-0123456789abcdef" },
  },
  session: { dmScope: "per-peer" },
  channels: { telegram: { apiRoot: "${telegram.apiRoot}", dmPolicy: "pairing" } },
}
`;
    sb.writeConfig(original);
    const term = createFakeTerminal();
    const done = runOnTerminal(["configure", "--section", "gateway", "--section", "channels"], {
      env: sb.env,
      term,
    });
    await term.waitFor("Gateway port");
    await term.waitFor("18800");
    term.type(`${KEY.backspace.repeat(5)}18801${KEY.enter}`);
    await term.waitFor("Listen on");
    term.type(KEY.enter);
    await term.waitFor("Client authentication");
    term.type(KEY.enter);
    await term.waitFor("Gateway token");
    term.type(KEY.enter); // keep the current token
    await term.waitFor("Connect a chat channel");
    term.type(KEY.enter); // telegram
    await term.waitFor("Telegram bot token");
    term.type(`987654321:AAHunknownunknownunknownunknown1${KEY.enter}`);
    await term.waitFor("Telegram did not accept it");
    await term.waitFor("Telegram could not confirm this token");
    term.type(KEY.enter); // enter it again
    await term.waitFor("Telegram bot token");
    term.type(`${BOT}${KEY.enter}`);
    await term.waitFor("Telegram bot @pincer_test_bot");
    await term.waitFor("Write this to");
    term.type(KEY.enter);
    const res = await done;
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).toContain("// hand-written, keep me");
    expect(text).toContain("// my port");
    const cfg = JSON5.parse(text);
    expect(cfg.gateway).toMatchObject({
      port: 18801,
      bind: "loopback",
      auth: { mode: "token", token: "kept-token-0123456789abcdef" },
    });
    expect(cfg.session).toEqual({ dmScope: "per-peer" });
    expect(cfg.channels.telegram).toEqual({
      apiRoot: telegram.apiRoot,
      dmPolicy: "pairing",
      botToken: BOT,
    });
    expect(cfg.agents).toBeUndefined();
    expect(telegram.callsOf("getMe", BOT)).toHaveLength(1);
    expect(existsSync(join(sb.stateDir, "workspace"))).toBe(false);
    expect(term.screen()).not.toContain(BOT);
  });
});
