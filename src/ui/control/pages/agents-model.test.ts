import { describe, expect, it } from "vitest";
import { describeMatch, routeParams } from "./agents-model.js";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("the route tester", () => {
  it("sends only the fields filled in, roles split at commas", () => {
    expect(
      routeParams(
        form({
          channel: " discord ",
          accountId: "",
          peerKind: "channel",
          peerId: "c1",
          roles: "a, b,,",
        }),
      ),
    ).toEqual({
      channel: "discord",
      peer: { kind: "channel", id: "c1" },
      memberRoleIds: ["a", "b"],
    });
    expect(routeParams(form({ channel: "telegram", peerKind: "direct", peerId: "" }))).toEqual({
      channel: "telegram",
    });
  });

  it("describes a binding's match like pincer agents list --bindings", () => {
    expect(describeMatch({ channel: "telegram", peer: { kind: "direct", id: "42" } })).toBe(
      "telegram default account peer=direct:42",
    );
    expect(describeMatch({ channel: "discord", accountId: "*", guildId: "g", roles: ["r"] })).toBe(
      "discord account=* guild=g roles=r",
    );
  });
});
