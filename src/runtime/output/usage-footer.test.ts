import { describe, expect, it } from "vitest";
import { resolveDisplayLevels, usageModeOf } from "./display-levels.js";
import { formatUsageFooter } from "./usage-footer.js";

const usage = { input: 123456, output: 789, cacheRead: 2000, cacheWrite: 50 };

describe("usage footer", () => {
  it("tokens: in and out; full: cache, model and a cost only when priced; off: none", () => {
    expect(formatUsageFooter({ mode: "tokens", usage, cost: 1 })).toBe(
      "Usage: 123,456 in / 789 out",
    );
    expect(
      formatUsageFooter({ mode: "full", usage, modelRef: "anthropic/opus", cost: 1.234 }),
    ).toBe("Usage: 123,456 in / 789 out · cache 2,000 read / 50 write · anthropic/opus · $1.23");
    expect(formatUsageFooter({ mode: "full", usage, modelRef: "local/m", cost: 0 })).toBe(
      "Usage: 123,456 in / 789 out · cache 2,000 read / 50 write · local/m",
    );
    expect(formatUsageFooter({ mode: "off", usage })).toBeUndefined();
  });
});

describe("display levels", () => {
  it("the session's value wins over the configured default; unknown values are ignored", () => {
    const config = {
      messages: { responseUsage: true },
      agents: { defaults: { verboseDefault: "full" } },
    };
    expect(resolveDisplayLevels({ config })).toEqual({
      usage: "tokens",
      verbose: "full",
      reasoning: "off",
    });
    const entry = { responseUsage: "off", verboseLevel: "loud", reasoningLevel: "stream" };
    expect(resolveDisplayLevels({ entry, config })).toEqual({
      usage: "off",
      verbose: "full",
      reasoning: "stream",
    });
    expect(resolveDisplayLevels({ config: {} })).toEqual({
      usage: "off",
      verbose: "off",
      reasoning: "off",
    });
    expect([usageModeOf("on"), usageModeOf(false), usageModeOf("cost")]).toEqual([
      "tokens",
      "off",
      undefined,
    ]);
  });
});
