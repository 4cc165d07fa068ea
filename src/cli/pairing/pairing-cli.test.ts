// `pincer pairing list|approve|reject` through the real argv parser, against a temp state dir: OpenClaw's
// shapes (channel positional or --channel, `approve <code>`, --account) and the errors for codes that
// are unknown, ambiguous or of another account.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { allowFromFilePath, createPairingStore } from "../../channels/pairing/pairing-store.js";

/** A sandbox with telegram (accounts default and work) and memory requests pending. */
function pendingSandbox(params: { sameCodeAcrossChannels?: boolean } = {}) {
  const sb = createCliSandbox();
  sb.writeConfig(JSON.stringify({ channels: { telegram: { botToken: "123:abc" } } }));
  let n = 0;
  const counting = createPairingStore({ stateDir: sb.stateDir, random: (k) => n++ % k });
  const code = (result: ReturnType<typeof counting.request>) =>
    result.status === "full" ? "" : result.code;
  const tgDefault = code(
    counting.request({ channel: "telegram", accountId: "default", senderId: "111" }),
  );
  const tgWork = code(
    counting.request({ channel: "telegram", accountId: "work", senderId: "222" }),
  );
  const store = params.sameCodeAcrossChannels
    ? createPairingStore({ stateDir: sb.stateDir, random: () => 0 })
    : counting;
  const memory = code(store.request({ channel: "memory", accountId: "default", senderId: "333" }));
  if (params.sameCodeAcrossChannels)
    code(store.request({ channel: "signal", accountId: "default", senderId: "444" }));
  return { sb, tgDefault, tgWork, memory };
}

const allowFrom = (stateDir: string, channel: string, account: string): string[] => {
  const path = allowFromFilePath(stateDir, channel, account);
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).allowFrom : [];
};

describe("pincer pairing (OpenClaw's argument shapes)", () => {
  it("list takes the channel positionally or as --channel, and --account", async () => {
    const { sb } = pendingSandbox();
    const ids = async (argv: string[]) =>
      JSON.parse((await sb.run(["pairing", "list", ...argv, "--json"])).stdout).requests.map(
        (r: { id: string }) => r.id,
      );
    expect(await ids([])).toEqual(expect.arrayContaining(["111", "222", "333"]));
    expect(await ids(["telegram"])).toEqual(["111", "222"]);
    expect(await ids(["--channel", "telegram"])).toEqual(["111", "222"]);
    expect(await ids(["telegram", "--account", "work"])).toEqual(["222"]);
    const json = JSON.parse((await sb.run(["pairing", "list", "telegram", "--json"])).stdout);
    expect(json).toMatchObject({ channel: "telegram", requests: [{ channel: "telegram" }, {}] });
    const twice = await sb.run(["pairing", "list", "telegram", "--channel", "memory"]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('two channels given: "telegram" and --channel memory');
  });

  it("approve <code>, approve <channel> <code> and approve --channel C --account A <code>", async () => {
    const { sb, tgDefault, tgWork, memory } = pendingSandbox();
    const alone = await sb.run(["pairing", "approve", memory.toLowerCase()]);
    expect(alone).toMatchObject({ code: 0 });
    expect(alone.stdout).toContain("Approved memory sender 333 (account default)");
    expect(allowFrom(sb.stateDir, "memory", "default")).toEqual(["333"]);

    const positional = await sb.run(["pairing", "approve", "telegram", tgDefault, "--json"]);
    expect(JSON.parse(positional.stdout)).toMatchObject({
      approved: true,
      channel: "telegram",
      accountId: "default",
      id: "111",
    });
    const wrongAccount = await sb.run(["pairing", "approve", tgWork, "--account", "default"]);
    expect(wrongAccount.code).toBe(1);
    expect(wrongAccount.stderr).toContain(
      `pairing code ${tgWork} belongs to telegram/work, not account default`,
    );
    const flags = await sb.run([
      "pairing",
      "approve",
      "--channel",
      "telegram",
      "--account",
      "work",
      tgWork,
    ]);
    expect(flags.code).toBe(0);
    expect(allowFrom(sb.stateDir, "telegram", "work")).toEqual(["222"]);
    expect(allowFrom(sb.stateDir, "telegram", "default")).toEqual(["111"]);
  });

  it("says what is wrong: unknown code, a channel given without a code, an ambiguous code", async () => {
    const { sb, memory } = pendingSandbox({ sameCodeAcrossChannels: true });
    const unknown = await sb.run(["pairing", "approve", "ZZZZ9999"]);
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain("no pending pairing code ZZZZ9999 (expired?");
    const onChannel = await sb.run(["pairing", "approve", "telegram", "ZZZZ9999"]);
    expect(onChannel.stderr).toContain("no pending pairing code ZZZZ9999 on channel telegram");
    const channelOnly = await sb.run(["pairing", "approve", "telegram"]);
    expect(channelOnly).toMatchObject({ code: 2 });
    expect(channelOnly.stderr).toContain(
      '"telegram" is a channel, not a code: pincer pairing approve telegram <code>',
    );
    const ambiguous = await sb.run(["pairing", "approve", memory]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(
      /is pending on (memory|signal)\/default, (memory|signal)\/default/,
    );
    expect(allowFrom(sb.stateDir, "memory", "default")).toEqual([]);
    const chosen = await sb.run(["pairing", "approve", memory, "--channel", "signal"]);
    expect(chosen.stdout).toContain("Approved signal sender 444");
    const rejected = await sb.run(["pairing", "reject", memory, "--json"]);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ rejected: true, channel: "memory" });
  });
});
