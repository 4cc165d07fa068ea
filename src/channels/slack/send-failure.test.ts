import { describe, expect, it } from "vitest";
import { toSlackSendFailure } from "./send-failure.js";

/** Errors shaped as @slack/web-api throws them. */
const request = (code: string) =>
  Object.assign(new Error("A request error occurred"), {
    code: "slack_webapi_request_error",
    original: Object.assign(new Error(code), { code }),
  });

describe("toSlackSendFailure", () => {
  it("connection refused before the request went out is retryable", () => {
    expect(toSlackSendFailure(request("ECONNREFUSED"))).toMatchObject({
      retryable: true,
      code: "ECONNREFUSED",
    });
  });

  it("a timeout or reset after the request went out is uncertain, never retried", () => {
    for (const code of ["ECONNABORTED", "ECONNRESET", "ETIMEDOUT"])
      expect(toSlackSendFailure(request(code))).toMatchObject({
        retryable: false,
        uncertain: true,
        code,
      });
  });

  it("rate limits carry Retry-After; Slack's refusals are final with their code", () => {
    expect(toSlackSendFailure({ code: "slack_webapi_rate_limited_error", retryAfter: 3 })).toEqual({
      message: "slack: rate limited",
      retryable: true,
      code: "ratelimited",
      retryAfterMs: 3000,
    });
    expect(
      toSlackSendFailure({
        code: "slack_webapi_platform_error",
        data: { ok: false, error: "not_in_channel" },
      }),
    ).toEqual({ message: "slack: not_in_channel", retryable: false, code: "not_in_channel" });
    expect(
      toSlackSendFailure({ code: "slack_webapi_http_error", statusCode: 502, headers: {} }),
    ).toMatchObject({ retryable: true, code: "http_502" });
    expect(
      toSlackSendFailure({
        code: "slack_webapi_http_error",
        statusCode: 429,
        headers: { "retry-after": "9" },
      }),
    ).toMatchObject({ retryable: true, retryAfterMs: 9000 });
    expect(
      toSlackSendFailure({ code: "slack_webapi_http_error", statusCode: 400, headers: {} }),
    ).toMatchObject({ retryable: false });
  });
});
