// `--bind` in `agents add` and `agents bind`: a misspelt channel is a usage error with a did-you-mean
// (nothing written), extension channels the config names are fine, and the same --bind twice is one
// binding. `agents unbind` still removes a binding to a channel nobody knows (cleaning up old typos).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const CONFIG = JSON.stringify({
  agents: { list: [{ id: "main" }, { id: "work" }] },
  channels: { telegram: { botToken: "1:a" }, mychat: { enabled: false } },
  bindings: [{ agentId: "work", match: { channel: "telegarm" } }],
});

const bindingsOf = (path: string) => JSON.parse(readFileSync(path, "utf8")).bindings;

describe("agents --bind channels", () => {
  it("refuses a misspelt channel with a did-you-mean, writing nothing", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(CONFIG);
    for (const argv of [
      ["agents", "add", "ops", "--non-interactive", "--bind", "telegrm"],
      ["agents", "add", "ops", "--non-interactive", "--bind", "slakc:team"],
      ["agents", "bind", "--agent", "work", "--bind", "Telegam:alerts"],
    ]) {
      const res = await sb.run(argv);
      expect(res.code, argv.join(" ")).toBe(2);
      expect(res.stderr).toMatch(/unknown channel "\w+" \(did you mean (telegram|slack)\?\)/);
      expect(readFileSync(sb.configPath, "utf8")).toBe(CONFIG);
    }
  });

  it("accepts schema and configured extension channels; a repeated --bind is one binding", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(CONFIG);
    const add = await sb.run([
      "agents",
      "add",
      "ops",
      "--non-interactive",
      "--bind",
      "mychat",
      "--bind",
      "discord:guild1",
      "--bind",
      "discord:guild1",
    ]);
    expect(add.code).toBe(0);
    const bind = await sb.run([
      "agents",
      "bind",
      "--agent",
      "main",
      "--bind",
      "telegram",
      "--bind",
      "telegram",
    ]);
    expect(bind.code).toBe(0);
    const rules = bindingsOf(sb.configPath).map(
      (b: { agentId: string; match: { channel: string; accountId?: string } }) =>
        `${b.agentId}:${b.match.channel}${b.match.accountId ? `:${b.match.accountId}` : ""}`,
    );
    expect(rules).toEqual(["work:telegarm", "ops:mychat", "ops:discord:guild1", "main:telegram"]);
    const unbind = await sb.run(["agents", "unbind", "--agent", "work", "--bind", "telegarm"]);
    expect(unbind.code).toBe(0);
    expect(bindingsOf(sb.configPath)).toHaveLength(3);
  });
});
