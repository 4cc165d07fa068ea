import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { describeAccountAuth } from "./account-auth.js";

describe("account credentials for channels list", () => {
  it("lists a WhatsApp Cloud account's token and webhook secrets by source, never their values", () => {
    const entries = describeAccountAuth({
      channel: "whatsapp",
      accountId: "biz",
      config: {
        transport: "cloud",
        phoneNumberId: "1234567890",
        // A `${VAR}` reference, as the config file spells it.
        accessToken: ["$", "{WA_TOKEN}"].join(""),
        appSecret: { source: "env", id: "WA_SECRET" },
        verifyToken: "inline-verify",
      },
      env: { WA_TOKEN: "t" },
    });
    expect(entries).toEqual([
      { key: "accessToken", source: "env", env: "WA_TOKEN", present: true },
      { key: "appSecret", source: "env", env: "WA_SECRET", present: false },
      { key: "verifyToken", source: "config", present: true },
    ]);
    expect(JSON.stringify(entries)).not.toContain("inline-verify");
  });

  it("a WhatsApp Web account's credential is its linked auth dir, present once linked", () => {
    const stateDir = makeTempDir("pincer-wa-auth-");
    const describe = (accountId: string, config: Record<string, unknown> = {}) =>
      describeAccountAuth({ channel: "whatsapp", accountId, config, env: {}, stateDir });
    const creds = (id: string) => join(stateDir, "credentials", "whatsapp", id, "creds.json");
    expect(describe("personal")).toEqual([
      { key: "authDir", source: "file", file: creds("personal"), present: false },
    ]);
    mkdirSync(join(stateDir, "credentials", "whatsapp", "personal"), { recursive: true });
    // Keys written before a scan are not a link: only `me` is.
    writeFileSync(creds("personal"), JSON.stringify({ noiseKey: {} }));
    expect(describe("personal")[0]?.present).toBe(false);
    writeFileSync(
      creds("personal"),
      JSON.stringify({ me: { id: "15551234567:3@s.whatsapp.net" } }),
    );
    expect(describe("personal")[0]?.present).toBe(true);
    const custom = join(stateDir, "elsewhere");
    expect(describe("biz", { authDir: custom })[0]?.file).toBe(join(custom, "creds.json"));
    expect(describe("biz", { transport: "cloud" }).some((e) => e.key === "authDir")).toBe(false);
  });
});
