// A switch over the run event union that forgets a member does not compile (the @ts-expect-error
// below is itself an error the day the switch becomes complete), and an untyped value that gets
// through anyway throws instead of being dropped.
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runtime/run/index.js";
import { assertNever } from "./assert-never.js";

function kindOf(event: RunEvent): string {
  switch (event.type) {
    case "lifecycle":
    case "model":
    case "assistant_delta":
    case "tool_start":
    case "tool_end":
    case "failover":
      return event.type;
    default:
      // @ts-expect-error "compaction" is not handled above: it reaches assertNever.
      return assertNever(event, "run event");
  }
}

describe("assertNever", () => {
  it("refuses an unhandled run event at compile time, and throws for one at run time", () => {
    expect(kindOf({ type: "model", runId: "r", provider: "p", model: "m", credential: "c" })).toBe(
      "model",
    );
    const compaction: RunEvent = { type: "compaction", runId: "r", ok: true, detail: "d" };
    expect(() => kindOf(compaction)).toThrow(/unhandled run event: .*compaction/);
  });
});
