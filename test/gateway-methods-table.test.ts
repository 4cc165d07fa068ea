import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMethod, ok } from "../src/gateway/methods/method.js";
import type { MethodDeps } from "../src/gateway/methods/method-deps.js";
import {
  bindMethods,
  GATEWAY_METHODS,
  requiredScope,
} from "../src/gateway/methods/method-table.js";
import { formatIssues, validateSchema } from "../src/gateway/ws/schema-issues.js";
import { GATEWAY_RESULT_SCHEMAS, GATEWAY_SCHEMAS } from "../src/protocol/gateway/index.js";
import { METHOD_PARAMS, METHOD_RESULTS } from "../src/protocol/gateway/method-schemas.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";
import { staticPathTo } from "./helpers/static-imports.js";

const FRAME_SCHEMAS = ["frame.req", "frame.res", "frame.event", "connect"];
const names = GATEWAY_METHODS.map((method) => method.name);

describe("method table drift", () => {
  it("names are unique and match the generated schemas and the TypeBox sources both ways", () => {
    expect(new Set(names).size).toBe(names.length);
    const generated = Object.keys(GATEWAY_SCHEMAS).filter((key) => !FRAME_SCHEMAS.includes(key));
    expect([...names].sort()).toEqual([...generated].sort());
    expect([...names].sort()).toEqual(Object.keys(METHOD_PARAMS).sort());
    for (const method of GATEWAY_METHODS) {
      expect(method.params, method.name).toBe(
        (GATEWAY_SCHEMAS as Record<string, unknown>)[method.name],
      );
    }
  });

  it("every declared result schema belongs to a method, which carries it", () => {
    expect(Object.keys(GATEWAY_RESULT_SCHEMAS).sort()).toEqual(Object.keys(METHOD_RESULTS).sort());
    for (const [name, schema] of Object.entries(GATEWAY_RESULT_SCHEMAS)) {
      expect(GATEWAY_METHODS.find((method) => method.name === name)?.result, name).toBe(schema);
    }
    const withResult = GATEWAY_METHODS.filter((method) => method.result).map((m) => m.name);
    expect(withResult.sort()).toEqual(Object.keys(GATEWAY_RESULT_SCHEMAS).sort());
  });
});

describe("scopes", () => {
  it("each method needs the scope it always needed", () => {
    const read = [
      "health",
      "status",
      "system-presence",
      "agent.identity.get",
      "chat.history",
      "sessions.list",
      "sessions.preview",
      "sessions.subscribe",
      "sessions.unsubscribe",
      "agents.list",
      "agents.route",
      "agents.files.list",
      "agents.files.get",
      "models.list",
      "channels.status",
      "channels.pairing.list",
      "channels.failures.list",
      "logs.tail",
      "last-heartbeat",
      "cron.list",
      "cron.status",
      "cron.runs",
      "usage.cost",
      "usage.status",
      "node.list",
      "node.describe",
    ];
    const write = [
      "system-event",
      "send",
      "agent",
      "agent.wait",
      "chat.send",
      "chat.abort",
      "sessions.patch",
      "sessions.reset",
      "sessions.delete",
      "sessions.compact",
      "channels.failures.retry",
      "channels.failures.drop",
      "node.invoke",
    ];
    // OpenClaw's pairing scope: device pairing and device tokens (admin covers it).
    const pairing = [
      "device.pair.list",
      "device.pair.approve",
      "device.pair.reject",
      "device.pair.remove",
      "device.token.rotate",
      "device.token.revoke",
    ];
    // OpenClaw's approvals scope: the exec approval requests (admin covers it).
    const approvals = ["exec.approval.list", "exec.approval.resolve"];
    const expected = Object.fromEntries(
      names.map((name) => [
        name,
        read.includes(name)
          ? "operator.read"
          : write.includes(name)
            ? "operator.write"
            : pairing.includes(name)
              ? "operator.pairing"
              : approvals.includes(name)
                ? "operator.approvals"
                : "operator.admin",
      ]),
    );
    expect(Object.fromEntries(names.map((name) => [name, requiredScope(name)]))).toEqual(expected);
    // config.* (5), set-heartbeats, the pairing approve/dismiss, and linking an account
    // (web.login.start/wait, channels.logout), writing a bootstrap file (agents.files.set), and
    // changing cron jobs (cron.add/update/remove/run, as OpenClaw), and the two node-role methods
    // (node.invoke.result, node.event: refused to operators by their handlers anyway).
    expect(Object.values(expected).filter((scope) => scope === "operator.admin").length).toBe(18);
  });

  it("unknown methods and the admin families need operator.admin", () => {
    for (const name of [
      "no.such.method",
      "",
      "config.nope",
      "exec.approvals.get",
      "wizard.start",
      "update.run",
    ]) {
      expect(requiredScope(name), name).toBe("operator.admin");
    }
  });
});

describe("method objects", () => {
  it("a handler is given exactly the dependencies it lists", async () => {
    const seen: string[][] = [];
    const probe = defineMethod({
      name: "health",
      scope: "operator.read",
      uses: ["now", "stateDir"],
      handler: (_call, deps) => {
        seen.push(Object.keys(deps).sort());
        return ok(deps.stateDir);
      },
    });
    const everything = { now: () => 1, stateDir: "/state", runs: {}, stores: {} };
    const bound = bindMethods([probe], everything as unknown as MethodDeps).get("health");
    const client = {
      connId: "c",
      role: "operator",
      scopes: [],
      clientId: "t",
      mode: "cli",
      remoteAddress: "::1",
    } as const;
    const result = await bound?.handle({
      method: "health",
      params: {},
      client: { ...client, scopes: [] },
      ack: () => {},
    });
    expect(result).toEqual({ ok: true, payload: "/state" });
    expect(seen).toEqual([["now", "stateDir"]]);
  });

  it("types: a scope is required, names must have a schema, params and deps are typed", () => {
    // Never called: these lines are checked by `npm run check` (tsc over test/).
    const typeChecks = () => [
      // @ts-expect-error a method without a scope does not compile
      defineMethod({ name: "health", uses: [], handler: () => ok(null) }),
      defineMethod({
        // @ts-expect-error a name without a params schema in method-schemas.ts does not compile
        name: "no.such.method",
        scope: "operator.read",
        uses: [],
        handler: () => ok(null),
      }),
      defineMethod({
        name: "agent.wait",
        scope: "operator.write",
        uses: ["runs"],
        // @ts-expect-error params are the schema's type: agent.wait has no `message`
        handler: ({ params }) => ok(params.message),
      }),
      defineMethod({
        name: "agent.wait",
        scope: "operator.write",
        uses: ["runs"],
        // @ts-expect-error a dependency the method did not list is not there
        handler: (_call, deps) => ok(deps.stores),
      }),
    ];
    expect(typeof typeChecks).toBe("function");
  });
});

describe("declared results on the wire", () => {
  let box: GatewaySandbox;
  beforeAll(async () => {
    box = await createGatewaySandbox({
      config: () => ({
        agents: { list: [{ id: "main", identity: { name: "Pinchy", emoji: "🦀" } }] },
      }),
    });
  });
  afterAll(async () => box?.close());

  it("match their result schema", async () => {
    const client = await box.connect();
    const calls: Record<string, unknown> = {
      "set-heartbeats": { enabled: false },
      "chat.abort": { sessionKey: "main" },
      "agent.identity.get": { agentId: "main" },
      "agents.list": {},
      "agents.files.list": { agentId: "main" },
      "agents.files.get": { agentId: "main", name: "SOUL.md" },
      "agents.files.set": { agentId: "main", name: "SOUL.md", content: "# Soul\n" },
      "usage.cost": { days: 7 },
      "usage.status": {},
    };
    expect(Object.keys(calls).sort()).toEqual(Object.keys(GATEWAY_RESULT_SCHEMAS).sort());
    for (const [name, params] of Object.entries(calls)) {
      const res = await client.request(name, params);
      expect(res.ok, name).toBe(true);
      const schema = (GATEWAY_RESULT_SCHEMAS as Record<string, Record<string, unknown>>)[name];
      expect(formatIssues(validateSchema(schema ?? {}, res.payload)), name).toBe("");
    }
    client.close();
  });
});

describe("start-up", () => {
  // The preload right after ready loads the tools (their schemas are TypeBox), by design; what
  // serves requests never needs it: validation runs on the generated plain-JSON schemas.
  it("is seen by the check where a module imports TypeBox statically", () => {
    expect(staticPathTo("protocol/gateway/method-schemas.ts", "typebox")).toEqual([
      "protocol/gateway/method-schemas.ts",
    ]);
  });

  it.each([
    "gateway/index.ts",
    "gateway/server.ts",
    "gateway/ws/connection.ts",
    "gateway/methods/method-table.ts",
    "cli/gateway/run.ts",
  ])("%s reaches no TypeBox at load time (requests are validated on plain JSON)", (entry) => {
    expect(staticPathTo(entry, "typebox")).toBeUndefined();
  });
});
