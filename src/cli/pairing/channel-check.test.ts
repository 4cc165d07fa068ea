// A channel typed wrong in `pincer pairing list|approve|reject` is a usage error naming the channel
// with a did-you-mean (never an empty list or "no pending code"), and a known channel given where the
// code belongs says so, even when it is not configured yet.
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { createPairingStore } from "../../channels/pairing/pairing-store.js";

function sandboxWithCode() {
  const sb = createCliSandbox();
  sb.writeConfig(JSON.stringify({ channels: { telegram: { botToken: "123:abc" } } }));
  const res = createPairingStore({ stateDir: sb.stateDir }).request({
    channel: "telegram",
    accountId: "default",
    senderId: "111",
  });
  return { sb, code: res.status === "full" ? "" : res.code };
}

describe("pairing: unknown channels", () => {
  it("list, approve and reject refuse a misspelt channel with a did-you-mean (exit 2)", async () => {
    const { sb, code } = sandboxWithCode();
    for (const argv of [
      ["pairing", "list", "telegarm"],
      ["pairing", "list", "--channel", "Telegrm"],
      ["pairing", "approve", "telegarm", code],
      ["pairing", "approve", "--channel", "tlegram", code],
      ["pairing", "reject", "telegam", code],
    ]) {
      const res = await sb.run(argv);
      expect(res.code, argv.join(" ")).toBe(2);
      expect(res.stderr, argv.join(" ")).toMatch(
        /unknown channel "\w+" \(did you mean telegram\?\)/,
      );
    }
    const list = await sb.run(["pairing", "list", "nosuchthing"]);
    expect(list.stderr).toContain('unknown channel "nosuchthing"; channels: ');
    // Nothing was approved or dropped.
    const left = JSON.parse((await sb.run(["pairing", "list", "--json"])).stdout).requests;
    expect(left.map((r: { code: string }) => r.code)).toEqual([code]);
  });

  it("a channel id the schema knows is accepted (empty list) and is never taken for a code", async () => {
    const { sb } = sandboxWithCode();
    const slack = await sb.run(["pairing", "list", "slack", "--json"]);
    expect(slack.code).toBe(0);
    expect(JSON.parse(slack.stdout).requests).toEqual([]);
    for (const channel of ["whatsapp", "signal"]) {
      const res = await sb.run(["pairing", "approve", channel]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`"${channel}" is a channel, not a code`);
    }
    const settings = await sb.run(["pairing", "list", "defaults"]);
    expect(settings.code).toBe(2);
  });
});
