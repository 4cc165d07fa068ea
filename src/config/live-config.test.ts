import { describe, expect, it } from "vitest";
import { changedKeys } from "./live-config.js";

describe("changedKeys", () => {
  const keys = ["gateway.port", "cluster.queue", "cluster.store"];

  it("names each restart key whose value differs, deep, in the keys' order", () => {
    const prev = { gateway: { port: 1 }, cluster: { queue: { kind: "nats" as const, url: "a" } } };
    const next = {
      gateway: { port: 1 },
      cluster: {
        queue: { kind: "nats" as const, url: "b" },
        store: { kind: "postgres" as const, url: "postgres://x/db" },
      },
    };
    expect(changedKeys(prev, next, keys)).toEqual(["cluster.queue", "cluster.store"]);
  });

  it("treats a missing block as unset and an equal one as unchanged", () => {
    expect(changedKeys({}, { gateway: {} }, keys)).toEqual([]);
    expect(changedKeys({ gateway: { port: 2 } }, {}, keys)).toEqual(["gateway.port"]);
  });
});
