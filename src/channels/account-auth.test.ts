import { describe, expect, it } from "vitest";
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
});
