// The generated protocol schemas match the TypeBox sources (a pure check: `npm run gen` rewrites them).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatIssues, validateSchema } from "../src/gateway/ws/schema-issues.js";
import { renderGeneratedSchemas } from "../src/protocol/gateway/build-schemas.js";
import { GATEWAY_SCHEMAS } from "../src/protocol/gateway/index.js";

const file = new URL("../src/protocol/gateway/schema.generated.ts", import.meta.url);

describe("gateway protocol schemas", () => {
  it("schema.generated.ts is up to date", () => {
    const expected = renderGeneratedSchemas();
    const stale = readFileSync(file, "utf8") !== expected;
    expect(stale, "src/protocol/gateway/schema.generated.ts is stale: run `npm run gen`").toBe(
      false,
    );
  });

  it("formats issues like OpenClaw (ajv-style, root issues bare)", () => {
    const issues = validateSchema(GATEWAY_SCHEMAS.agent, { message: "hi" });
    expect(formatIssues(issues)).toBe("must have required property 'idempotencyKey'");
    const extra = validateSchema(GATEWAY_SCHEMAS["sessions.patch"], {
      key: "k",
      modelProvider: "x",
    });
    expect(formatIssues(extra)).toBe("at root: unexpected property 'modelProvider'");
    const client = { id: "nope", version: "1", platform: "linux", mode: "cli" };
    const connect = validateSchema(GATEWAY_SCHEMAS.connect, {
      minProtocol: 3,
      maxProtocol: 4,
      client,
    });
    expect(formatIssues(connect)).toBe("at /client/id: must be equal to one of the allowed values");
  });
});
