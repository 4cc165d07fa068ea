// Collects the TypeBox schemas into one JSON object: what schema.generated.ts holds. Used by the
// generator/drift test only (it loads TypeBox, so the server never imports it).
import { METHOD_PARAMS } from "./method-schemas.js";
import {
  ConnectParamsSchema,
  EventFrameSchema,
  RequestFrameSchema,
  ResponseFrameSchema,
} from "./schema.js";

/** Every runtime-validated schema as plain JSON (symbols dropped), keyed by name. */
function buildGatewaySchemas(): Record<string, unknown> {
  const frames = {
    "frame.req": RequestFrameSchema,
    "frame.res": ResponseFrameSchema,
    "frame.event": EventFrameSchema,
    connect: ConnectParamsSchema,
  };
  return JSON.parse(JSON.stringify({ ...frames, ...METHOD_PARAMS })) as Record<string, unknown>;
}

/** The text of schema.generated.ts for the current TypeBox sources. */
export function renderGeneratedSchemas(): string {
  const schemas = buildGatewaySchemas();
  const json = JSON.stringify(schemas);
  const names = Object.keys(schemas).map((name) => JSON.stringify(name));
  return [
    "// Generated from schema.ts + method-schemas.ts by test/gateway-schema.test.ts",
    "// (PINCER_WRITE_GATEWAY_SCHEMA=1 npx vitest run test/gateway-schema): do not edit.",
    "// Plain JSON so the gateway validates frames without loading TypeBox at start-up.",
    "",
    "/** Names of the generated schemas. */",
    `export type GatewaySchemaName = ${names.join(" | ")};`,
    "",
    "/** Protocol JSON Schemas, keyed by frame kind or method name. */",
    `export const GATEWAY_SCHEMAS: Record<GatewaySchemaName, Record<string, unknown>> = JSON.parse(${JSON.stringify(json)});`,
    "",
  ].join("\n");
}
