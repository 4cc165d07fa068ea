import { readFileSync } from "node:fs";
import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const signalSection = (path: string) =>
  (JSON5.parse(readFileSync(path, "utf8")) as { channels?: { signal?: Record<string, unknown> } })
    .channels?.signal;

describe("pincer channels add --channel signal", () => {
  it("writes the number, and with --http-url the daemon URL and autoStart false", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{\n  // mine\n}\n");
    const added = await sb.run([
      "channels",
      "add",
      "--channel",
      "signal",
      "--account",
      "+1 555 123 4567",
      "--http-url",
      "http://127.0.0.1:8080",
    ]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(signalSection(sb.configPath)).toEqual({
      account: "+15551234567",
      httpUrl: "http://127.0.0.1:8080",
      autoStart: false,
    });
    expect(readFileSync(sb.configPath, "utf8")).toContain("// mine");
    const listed = await sb.run(["channels", "list", "--json"]);
    expect(JSON.parse(listed.stdout).channels[0]).toMatchObject({
      channel: "signal",
      accountId: "default",
      adapter: true,
    });
  });

  it("refuses what is not a number or URL, naming it, and writes nothing", async () => {
    const sb = createCliSandbox();
    sb.writeConfig("{}");
    const cases: Array<[string[], string]> = [
      [["--account", "bot"], '--account "bot" is not a phone number'],
      [[], "--account is required"],
      [["--account", "+15551234567", "--http-url", "localhost"], "expected an http(s) URL"],
      [["--account", "+15551234567", "--token-stdin"], "signal accounts have no token"],
    ];
    for (const [extra, message] of cases) {
      const result = await sb.run(["channels", "add", "--channel", "signal", ...extra], "x\n");
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(message);
    }
    expect(readFileSync(sb.configPath, "utf8")).toBe("{}");
  });
});
