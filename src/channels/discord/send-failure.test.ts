import { describe, expect, it } from "vitest";
import { toDiscordSendFailure } from "./send-failure.js";

const API = "https://discord.com/api";

function withFields(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe("Discord send failures as values", () => {
  it("a rate limit is retryable after retry_after (ms)", () => {
    const err = withFields("", {
      name: "RateLimitError",
      retryAfter: 1500,
      route: "/channels/:id/messages",
    });
    expect(toDiscordSendFailure(err, API)).toEqual({
      message: "Discord rate limit on /channels/:id/messages",
      retryable: true,
      retryAfterMs: 1500,
      code: "discord_429",
    });
  });

  it("5xx is retryable, 4xx is final with Discord's code", () => {
    expect(toDiscordSendFailure(withFields("Bad Gateway", { status: 502 }), API)).toMatchObject({
      retryable: true,
      code: "discord_502",
    });
    const missing = withFields("Missing Access", { status: 403, code: 50001 });
    expect(toDiscordSendFailure(missing, API)).toEqual({
      message: "Discord answered 403: Missing Access",
      retryable: false,
      code: "discord_50001",
    });
  });

  it("a refused connection is retryable; a timeout or reset after sending is uncertain", () => {
    const refused = withFields("fetch failed", { cause: { code: "ECONNREFUSED" } });
    expect(toDiscordSendFailure(refused, API)).toMatchObject({
      retryable: true,
      code: "connection_failed",
    });
    const aborted = withFields("This operation was aborted", { name: "AbortError" });
    expect(toDiscordSendFailure(aborted, API)).toMatchObject({
      retryable: false,
      uncertain: true,
      code: "timeout",
    });
    const reset = withFields("fetch failed", { cause: { code: "ECONNRESET" } });
    expect(toDiscordSendFailure(reset, API)).toMatchObject({ retryable: false, uncertain: true });
  });
});
