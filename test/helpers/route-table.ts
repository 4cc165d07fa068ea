// The shared runner of the routing table tests: each case must resolve to what it expects, with
// exactly OpenClaw's field set, and the explainer must agree with the indexed resolver.
import { describe, expect, it } from "vitest";
import { explainAgentRoute } from "../../src/routing/explain-route.js";
import { resolveAgentRoute } from "../../src/routing/resolve-route.js";
import type { ResolveAgentRouteInput, ResolvedAgentRoute } from "../../src/routing/types.js";

/** What a case pins down: agent, tier and key always; any other route field optionally. */
export type ExpectedRoute = Pick<ResolvedAgentRoute, "agentId" | "matchedBy" | "sessionKey"> &
  Partial<ResolvedAgentRoute>;

/** One table row: a name, the inbound message, the route it must get. */
export type RouteCase = [name: string, input: ResolveAgentRouteInput, expected: ExpectedRoute];

/** The fields of a resolved route, in OpenClaw's order. */
export const ROUTE_FIELDS = [
  "agentId",
  "channel",
  "accountId",
  "dmScope",
  "groupScope",
  "sessionKey",
  "mainSessionKey",
  "lastRoutePolicy",
  "matchedBy",
];

/** Declares a describe block that checks every case and the explainer's agreement on it. */
export function describeRouteTable(title: string, cases: RouteCase[]): void {
  describe(title, () => {
    it.each(cases)("%s", (_name, input, expected) => {
      const route = resolveAgentRoute(input);
      expect(route).toMatchObject(expected);
      expect(Object.keys(route)).toEqual(ROUTE_FIELDS);
    });

    it.each(cases)("explain agrees: %s", (_name, input) => {
      const route = resolveAgentRoute(input);
      const explained = explainAgentRoute(input);
      expect(explained.route).toEqual(route);
      expect(explained.tiers.at(-1)?.tier).toBe(route.matchedBy);
      expect(explained.tiers.at(-1)?.outcome).toBe("matched");
      expect(explained.matchedBindingIndex === undefined).toBe(route.matchedBy === "default");
    });
  });
}
