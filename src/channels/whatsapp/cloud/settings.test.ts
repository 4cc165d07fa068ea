import { describe, expect, it } from "vitest";
import { resolveCloudSettings } from "./settings.js";
import { validateCloudAccount } from "./validate.js";

const full = {
  transport: "cloud",
  phoneNumberId: "1234567890",
  // A `${VAR}` reference, as the config file spells it.
  accessToken: ["$", "{WA_TOKEN}"].join(""),
  appSecret: { source: "env", id: "WA_SECRET" },
  verifyToken: "verify-me",
};
const env = { WA_TOKEN: "tok", WA_SECRET: "sec" };

describe("cloud account settings", () => {
  it("names every missing key, and requires the webhook secrets (fail closed)", () => {
    expect(validateCloudAccount({ transport: "cloud" }, {})).toBe(
      "whatsapp cloud: missing phoneNumberId, accessToken, appSecret, verifyToken (appSecret and verifyToken are required: webhooks are only accepted when signed)",
    );
    const noSecret = validateCloudAccount({ ...full, appSecret: undefined }, env);
    expect(noSecret).toContain("missing appSecret");
    expect(validateCloudAccount({ ...full, verifyToken: "  " }, env)).toContain(
      "missing verifyToken",
    );
  });

  it("names unset env references and malformed values", () => {
    expect(validateCloudAccount(full, { WA_SECRET: "sec" })).toContain(
      "accessToken: WA_TOKEN is not set",
    );
    expect(validateCloudAccount(full, { WA_TOKEN: "t" })).toContain(
      "appSecret: environment variable WA_SECRET is not set",
    );
    expect(validateCloudAccount({ ...full, phoneNumberId: "+1555" }, env)).toContain(
      'phoneNumberId "+1555" is not a Graph phone number id',
    );
    expect(validateCloudAccount({ ...full, apiVersion: "21" }, env)).toContain("apiVersion");
    expect(validateCloudAccount({ ...full, webhookPath: "hooks/x" }, env)).toContain("webhookPath");
  });

  it("resolves secrets, defaults and overrides", () => {
    const result = resolveCloudSettings({ config: full, env, accountId: "biz" });
    expect(result).toEqual({
      ok: true,
      settings: {
        phoneNumberId: "1234567890",
        accessToken: "tok",
        appSecret: "sec",
        verifyToken: "verify-me",
        graphBase: "https://graph.facebook.com/v21.0",
        webhookPath: "/webhooks/whatsapp/biz",
        mediaMaxBytes: 5 * 1024 * 1024,
        timeoutMs: 30_000,
      },
    });
    const custom = resolveCloudSettings({
      config: { ...full, apiRoot: "http://127.0.0.1:9/", apiVersion: "v23.0", webhookPath: "/wa" },
      env,
      accountId: "biz",
    });
    expect(custom.ok && custom.settings).toMatchObject({
      graphBase: "http://127.0.0.1:9/v23.0",
      webhookPath: "/wa",
    });
  });
});
