import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMIT_WAIT_MS, graphFailure, requestFailure } from "./graph-errors.js";

const graph = (status: number, code: number, message = "m", extra = {}) => ({
  status,
  body: { error: { code, message, ...extra } },
  retryAfter: null,
});

describe("Graph API failures", () => {
  it("says an expired or invalid token so, and never retries it", () => {
    const failure = graphFailure(graph(401, 190, "Session has expired"));
    expect(failure).toMatchObject({ retryable: false, code: "graph_190" });
    expect(failure.message).toContain("access token expired or invalid (Graph error 190)");
    expect(graphFailure({ status: 401, body: {}, retryAfter: null }).message).toContain(
      "access token expired or invalid",
    );
  });

  it("names the closed 24-hour window (a template is needed)", () => {
    const failure = graphFailure(graph(400, 131047));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toContain(
      "only a template message can reach them (Graph error 131047)",
    );
  });

  it.each([130429, 80007, 4])("retries rate limit %i after its wait", (code) => {
    expect(graphFailure(graph(400, code))).toMatchObject({
      retryable: true,
      retryAfterMs: DEFAULT_RATE_LIMIT_WAIT_MS,
    });
    expect(graphFailure({ ...graph(429, code), retryAfter: "7" }).retryAfterMs).toBe(7000);
  });

  it("retries 5xx and transient errors, not other refusals", () => {
    expect(graphFailure(graph(503, 2)).retryable).toBe(true);
    expect(graphFailure(graph(400, 1, "x", { is_transient: true })).retryable).toBe(true);
    expect(graphFailure(graph(400, 100, "Invalid parameter"))).toMatchObject({
      retryable: false,
      code: "graph_100",
    });
  });

  it("retries what never reached Meta; a timeout or a cut connection is uncertain", () => {
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    expect(requestFailure(refused, "graph.facebook.com")).toMatchObject({
      retryable: true,
      code: "connection_failed",
    });
    const timeout = Object.assign(new Error("The operation was aborted due to timeout"), {
      name: "TimeoutError",
    });
    expect(requestFailure(timeout, "graph.facebook.com")).toMatchObject({
      retryable: false,
      uncertain: true,
      code: "timeout",
    });
    const reset = new TypeError("fetch failed", {
      cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
    });
    expect(requestFailure(reset, "graph.facebook.com")).toMatchObject({ uncertain: true });
  });
});
