import { describe, expect, it } from "vitest";
import { patchParams } from "./sessions-detail.js";
import {
  DEFAULT_VIEW,
  listParams,
  modelOf,
  queryOfView,
  type SessionRow,
  viewFromQuery,
} from "./sessions-model.js";

const row: SessionRow = {
  key: "agent:main:main",
  agentId: "main",
  sessionId: "s1",
  updatedAt: 1,
  thinkingLevel: "low",
  modelOverride: "m2",
  providerOverride: "fake",
};

describe("the Sessions page's view", () => {
  it("round-trips through the address, defaults left out", () => {
    const view = {
      ...DEFAULT_VIEW,
      agent: "work",
      search: "bob",
      sort: "tokens" as const,
      offset: 100,
    };
    const query = queryOfView(view);
    expect(query).toEqual({ agent: "work", q: "bob", sort: "tokens", offset: "100" });
    expect(viewFromQuery(new URLSearchParams(query))).toEqual(view);
    expect(queryOfView(DEFAULT_VIEW)).toEqual({});
  });

  it("ignores what it does not know in the address", () => {
    const view = viewFromQuery(new URLSearchParams("sort=bogus&order=up&offset=-5&limit=7"));
    expect(view).toEqual(DEFAULT_VIEW);
  });

  it("asks sessions.list for one page", () => {
    expect(listParams({ ...DEFAULT_VIEW, search: "  x " })).toEqual({
      search: "x",
      sort: "updatedAt",
      order: "desc",
      offset: 0,
      limit: 50,
    });
  });
});

describe("overrides", () => {
  it("patches only what changed; Default clears an override", () => {
    const values = { model: "fake/m2", thinkingLevel: "", verboseLevel: "on", queueMode: "" };
    expect(patchParams(row, values)).toEqual({
      key: "agent:main:main",
      thinkingLevel: null,
      verboseLevel: "on",
    });
  });

  it("shows the override before the last model used", () => {
    expect(modelOf(row)).toBe("fake/m2");
    expect(modelOf({ ...row, modelOverride: undefined, model: "m1", modelProvider: "p" })).toBe(
      "p/m1",
    );
  });
});
