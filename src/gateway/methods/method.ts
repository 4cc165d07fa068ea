// What a gateway method is: one object `{ name, scope, params, result?, uses, handler }` made by
// defineMethod. The name keys the protocol schemas: params (and result, when declared) are the
// generated plain-JSON schemas for it, and the handler's params type is the TypeBox Static of the
// same schema (imported as a type only: the gateway never needs TypeBox to validate). `scope` is
// required, and the handler sees only the dependencies it lists in `uses`.
import type {
  GatewayErrorShape,
  MethodName,
  MethodParamsByName,
  MethodScope,
} from "../../protocol/gateway/index.js";
import { GATEWAY_RESULT_SCHEMAS, GATEWAY_SCHEMAS } from "../../protocol/gateway/index.js";
import type { MethodDeps } from "./method-deps.js";

/** Who is calling. */
export interface ClientInfo {
  connId: string;
  role: "operator" | "node";
  scopes: string[];
  clientId: string;
  mode: string;
  remoteAddress: string;
  /** The device the connection authenticated as (a `connect.device` proof), if any. */
  deviceId?: string;
}

/** A method's outcome: a payload or an error value. */
export type MethodResult = { ok: true; payload: unknown } | { ok: false; error: GatewayErrorShape };

/** One validated request. */
export interface MethodCall<P = Record<string, unknown>> {
  method: string;
  params: P;
  client: ClientInfo;
  /** Sends an intermediate response on the same request id (the `agent` ack). */
  ack: (payload: unknown) => void;
}

/** The call a named method's handler gets: its params typed from the protocol schema. */
export type CallOf<N extends MethodName> = MethodCall<MethodParamsByName[N]>;

/** A JSON Schema as generated (plain JSON). */
export type JsonSchema = Record<string, unknown>;

/** What a method's author writes: defineMethod fills in `params` and `result` from the name. */
export interface MethodSpec<N extends MethodName, U extends keyof MethodDeps> {
  /** The wire name; must be a key of METHOD_PARAMS in src/protocol/gateway/method-schemas.ts. */
  name: N;
  /** The operator scope a caller needs (required: nothing defaults to a scope). */
  scope: MethodScope;
  /** The dependencies the handler uses; it is given exactly these. */
  uses: readonly U[];
  /** The implementation; may throw (the dispatcher turns it into UNAVAILABLE). */
  handler: (
    call: MethodCall<MethodParamsByName[N]>,
    deps: Pick<MethodDeps, U>,
  ) => Promise<MethodResult> | MethodResult;
}

/** A method of the table: its name, scope, schemas, dependencies and handler. */
export interface GatewayMethod {
  readonly name: MethodName;
  readonly scope: MethodScope;
  /** The generated params schema the dispatcher validates against. */
  readonly params: JsonSchema;
  /** The generated result schema, for methods that declare one in METHOD_RESULTS. */
  readonly result?: JsonSchema;
  readonly uses: readonly (keyof MethodDeps)[];
  readonly handler: (
    call: MethodCall<never>,
    deps: MethodDeps,
  ) => Promise<MethodResult> | MethodResult;
}

/** Makes a method object; throws (a bug: run `npm run gen`) when its generated schema is missing. */
export function defineMethod<N extends MethodName, U extends keyof MethodDeps = never>(
  spec: MethodSpec<N, U>,
): GatewayMethod {
  const params = (GATEWAY_SCHEMAS as Record<string, JsonSchema | undefined>)[spec.name];
  if (!params) throw new Error(`no generated params schema for ${spec.name}: run \`npm run gen\``);
  const result = (GATEWAY_RESULT_SCHEMAS as Record<string, JsonSchema | undefined>)[spec.name];
  return {
    name: spec.name,
    scope: spec.scope,
    params,
    ...(result ? { result } : {}),
    uses: spec.uses,
    handler: spec.handler as GatewayMethod["handler"],
  };
}

/** Shorthand for a success. */
export function ok(payload: unknown): MethodResult {
  return { ok: true, payload };
}

/** Shorthand for a failure. */
export function fail(error: GatewayErrorShape): MethodResult {
  return { ok: false, error };
}
