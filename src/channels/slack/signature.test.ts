import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkSlackSignature, slackSignature } from "./signature.js";

const secret = "8f742231b10e8888abcd99yyyzzz85a5";
const body = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&command=%2Fweather";

function request(headers: Record<string, string>, raw = body) {
  return { headers, body: Buffer.from(raw) };
}

describe("Slack request signatures", () => {
  it("is v0= + hex HMAC-SHA256 of v0:<timestamp>:<body> under the signing secret", () => {
    const expected = createHmac("sha256", secret).update(`v0:1531420618:${body}`).digest("hex");
    expect(slackSignature({ secret, timestampSeconds: 1531420618, body })).toBe(`v0=${expected}`);
    expect(
      slackSignature({ secret, timestampSeconds: "1531420618", body: Buffer.from(body) }),
    ).toBe(`v0=${expected}`);
  });

  it("accepts a fresh valid signature and refuses every other case with a reason", () => {
    const now = 1531420618 * 1000 + 1000;
    const good = slackSignature({ secret, timestampSeconds: 1531420618, body });
    const ts = "1531420618";
    expect(
      checkSlackSignature({
        request: request({ "x-slack-signature": good, "x-slack-request-timestamp": ts }),
        secret,
        now,
      }),
    ).toBeUndefined();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ "x-slack-request-timestamp": ts }, body, "missing"],
      [{ "x-slack-signature": good, "x-slack-request-timestamp": "abc" }, body, "not a number"],
      [{ "x-slack-signature": good, "x-slack-request-timestamp": ts }, `${body}x`, "wrong"],
      [{ "x-slack-signature": good.toUpperCase(), "x-slack-request-timestamp": ts }, body, "wrong"],
    ];
    for (const [headers, raw, reason] of cases)
      expect(checkSlackSignature({ request: request(headers, raw), secret, now })).toContain(
        reason,
      );
    const late = now + 6 * 60 * 1000;
    expect(
      checkSlackSignature({
        request: request({ "x-slack-signature": good, "x-slack-request-timestamp": ts }),
        secret,
        now: late,
      }),
    ).toContain("5 minutes");
  });
});
