// Collects the TypeBox schemas into plain JSON: what schema.generated.ts holds. Used by
// scripts/gen-gateway-schema.mjs (`npm run gen`) and the drift test only: it loads TypeBox, so the
// server never imports it.
import { METHOD_PARAMS, METHOD_RESULTS } from "./method-schemas.js";
import {
  ConnectParamsSchema,
  EventFrameSchema,
  RequestFrameSchema,
  ResponseFrameSchema,
} from "./schema.js";

/** Drops TypeBox's symbol keys: the schemas as plain JSON. */
function plain(schemas: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schemas)) as Record<string, unknown>;
}

/** Every runtime-validated schema as plain JSON (frames, connect, method params), keyed by name. */
function buildGatewaySchemas(): Record<string, unknown> {
  const frames = {
    "frame.req": RequestFrameSchema,
    "frame.res": ResponseFrameSchema,
    "frame.event": EventFrameSchema,
    connect: ConnectParamsSchema,
  };
  return plain({ ...frames, ...METHOD_PARAMS });
}

/** The text of schema.generated.ts for the current TypeBox sources. */
export function renderGeneratedSchemas(): string {
  const schemas = buildGatewaySchemas();
  const results = plain(METHOD_RESULTS);
  const names = Object.keys(schemas).map((name) => JSON.stringify(name));
  const resultNames = Object.keys(results).map((name) => JSON.stringify(name));
  return [
    "// Generated from schema.ts + method-schemas.ts by `npm run gen` (scripts/gen-gateway-schema.mjs):",
    "// do not edit. Plain JSON so the gateway validates frames without loading TypeBox at start-up.",
    "",
    "/** Names of the generated schemas. */",
    `export type GatewaySchemaName = ${names.join(" | ")};`,
    "",
    "/** Protocol JSON Schemas, keyed by frame kind or method name. */",
    `export const GATEWAY_SCHEMAS: Record<GatewaySchemaName, Record<string, unknown>> = JSON.parse(${JSON.stringify(JSON.stringify(schemas))});`,
    "",
    "/** Methods with a declared result schema. */",
    `export type GatewayResultName = ${resultNames.join(" | ")};`,
    "",
    "/** Result JSON Schemas of the methods that declare one, keyed by method name. */",
    `export const GATEWAY_RESULT_SCHEMAS: Record<GatewayResultName, Record<string, unknown>> = JSON.parse(${JSON.stringify(JSON.stringify(results))});`,
    "",
  ].join("\n");
}
