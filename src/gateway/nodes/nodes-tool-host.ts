// The `nodes` tool's gateway side: each call goes through the same bound `node.*` method a client
// calls (params validated against the same schema, the same checks), as a backend operator.
import type { NodesToolAnswer, NodesToolHost } from "../../runtime/tools/nodes-tool.js";
import type { MethodCall } from "../methods/method.js";
import type { BoundMethod } from "../methods/method-table.js";
import { formatIssues, validateSchema } from "../ws/schema-issues.js";

const TOOL_CLIENT: MethodCall["client"] = {
  connId: "nodes-tool",
  role: "operator",
  scopes: ["operator.read", "operator.write"],
  clientId: "nodes-tool",
  mode: "backend",
  remoteAddress: "local",
};

function errorOf(error: { code: string; message: string; details?: unknown }): string {
  const detail = (error.details as { code?: unknown } | undefined)?.code;
  return `${error.code}${typeof detail === "string" ? ` (${detail})` : ""}: ${error.message}`;
}

/** The tool host over the gateway's bound methods (read when called: they are bound later). */
export function createNodesToolHost(
  methods: () => ReadonlyMap<string, BoundMethod>,
): NodesToolHost {
  return {
    call: async (method, args): Promise<NodesToolAnswer> => {
      const bound = methods().get(method);
      if (!bound) return { ok: false, error: `${method} is not served` };
      const issues = validateSchema(bound.method.params, args);
      if (issues.length > 0) {
        return { ok: false, error: `invalid ${method} params: ${formatIssues(issues)}` };
      }
      const result = await bound.handle({
        method,
        params: args,
        client: TOOL_CLIENT,
        ack: () => {},
      });
      return result.ok
        ? { ok: true, payload: result.payload }
        : { ok: false, error: errorOf(result.error) };
    },
  };
}
