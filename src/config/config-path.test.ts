import { describe, expect, it } from "vitest";
import { formatConfigPath, getConfigValue, parseConfigPath } from "./config-path.js";

describe("parseConfigPath", () => {
  it.each([
    ["gateway.port", ["gateway", "port"]],
    ["agents.list[0].model", ["agents", "list", 0, "model"]],
    ["bindings[2]", ["bindings", 2]],
    [
      "channels.telegram.accounts.default.botToken",
      ["channels", "telegram", "accounts", "default", "botToken"],
    ],
    ['broadcast["telegram:1.2"]', ["broadcast", "telegram:1.2"]],
    ["channels.telegram.groups.-100123", ["channels", "telegram", "groups", "-100123"]],
  ])("%s", (path, segments) => {
    expect(parseConfigPath(path)).toEqual({ ok: true, segments });
  });

  it.each([
    ["", "empty"],
    ["a..b", "empty key"],
    ["a.", "ends with"],
    ["a[x]", "not an array index"],
    ["a[0", 'missing "]"'],
    ["a[0]b", 'expected "." or "["'],
  ])("rejects %j with a clear error", (path, fragment) => {
    const parsed = parseConfigPath(path);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(fragment);
  });

  it("round-trips through formatConfigPath", () => {
    for (const path of ["agents.list[1].agentDir", 'broadcast["a.b"]', "x[0][1]"]) {
      const parsed = parseConfigPath(path);
      expect(parsed.ok && formatConfigPath(parsed.segments)).toBe(path);
    }
  });
});

describe("getConfigValue", () => {
  const config = {
    gateway: { port: 18789 },
    agents: { list: [{ id: "main", model: "anthropic/claude" }] },
    bindings: [{ agentId: "a" }, { agentId: "b" }, { agentId: "c" }],
  };

  it("reads nested keys and indices", () => {
    expect(getConfigValue(config, "gateway.port")).toEqual({ ok: true, value: 18789 });
    expect(getConfigValue(config, "agents.list[0].model")).toEqual({
      ok: true,
      value: "anthropic/claude",
    });
    expect(getConfigValue(config, "bindings[2]")).toEqual({ ok: true, value: { agentId: "c" } });
  });

  it("separates a missing value from a malformed path", () => {
    expect(getConfigValue(config, "bindings[5]")).toMatchObject({ ok: false, reason: "not-found" });
    expect(getConfigValue(config, "gateway.port.x")).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    expect(getConfigValue(config, "gateway[")).toMatchObject({ ok: false, reason: "invalid-path" });
  });
});
