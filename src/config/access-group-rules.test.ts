import { describe, expect, it } from "vitest";
import { resolveStatePaths } from "./paths.js";
import { validateConfig } from "./validate.js";

const paths = resolveStatePaths({ env: { HOME: "/home/u", OPENCLAW_STATE_DIR: "/state" } });
const ops = { type: "message.senders", members: { telegram: ["42"], "*": ["@ann"] } };

function check(config: unknown) {
  const result = validateConfig(config, { paths });
  return {
    valid: result.valid,
    issues: result.issues.map(({ severity, path, message }) => ({ severity, path, message })),
  };
}

describe("accessGroup: references", () => {
  it("a config whose references all name groups is valid, with no warning about them", () => {
    const result = check({
      accessGroups: { ops },
      commands: {
        allowFrom: { telegram: ["accessGroup:ops"] },
        ownerAllowFrom: ["accessGroup:ops"],
      },
      channels: {
        telegram: {
          allowFrom: ["accessGroup:ops", "123"],
          groupAllowFrom: ["accessGroup:ops"],
          groups: { "-100": { allowFrom: ["accessGroup:ops"] } },
          accounts: { work: { allowFrom: ["accessGroup:ops"] } },
        },
      },
    });
    expect(result.valid).toBe(true);
    expect(
      result.issues.filter(
        (i) => i.path.includes("accessGroups") || i.message.includes("accessGroup"),
      ),
    ).toEqual([]);
  });

  it("an unknown group is an error naming the entry, wherever the list is", () => {
    const result = check({
      accessGroups: { ops },
      commands: { allowFrom: { "*": ["accessGroup:opz"] } },
      channels: {
        telegram: {
          accounts: { work: { groups: { "-1": { allowFrom: ["1", "accessGroup:night"] } } } },
        },
      },
    });
    expect(result.valid).toBe(false);
    const errors = result.issues.filter((i) => i.severity === "error");
    expect(errors.map((e) => e.path).sort()).toEqual([
      "channels.telegram.accounts.work.groups.-1.allowFrom[1]",
      "commands.allowFrom.*[0]",
    ]);
    const opz = errors.find((e) => e.path.startsWith("commands"))!;
    expect(opz.message).toContain('"accessGroup:opz" names no access group');
    expect(opz.message).toContain("did you mean accessGroup:ops?");
    expect(errors.find((e) => e.path.startsWith("channels"))!.message).toContain(
      "accessGroup:night",
    );
  });

  it("no accessGroups at all: a reference is an error too; an empty name is one", () => {
    const result = check({ channels: { telegram: { allowFrom: ["accessGroup:"] } } });
    expect(result.valid).toBe(false);
    expect(result.issues).toContainEqual(
      expect.objectContaining({ severity: "error", path: "channels.telegram.allowFrom[0]" }),
    );
  });

  it("the schema refuses a malformed group; a Discord audience group is accepted with a warning", () => {
    expect(check({ accessGroups: { ops: { type: "message.senders" } } }).valid).toBe(false);
    expect(check({ accessGroups: { ops: { type: "nope", members: {} } } }).valid).toBe(false);
    const audience = {
      accessGroups: { mods: { type: "discord.channelAudience", guildId: "1", channelId: "2" } },
      channels: { telegram: { allowFrom: ["accessGroup:mods"] } },
    };
    const result = check(audience);
    expect(result.valid).toBe(true);
    expect(result.issues).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        path: "channels.telegram.allowFrom[0]",
        message: expect.stringContaining("authorizes nobody"),
      }),
    );
  });
});
