// `pincer gateway call <method> [--params JSON] [--expect-final] [--url] [--token] [--password]
// [--timeout MS] [--json]`: one request to a running gateway; prints the response payload as JSON.
import { GatewayRequestError } from "../../client/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson } from "../command-context.js";
import {
  connectForCli,
  describeGatewayError,
  resolveGatewayTarget,
} from "../gateway-client-options.js";
import type { callOptions } from "./commands.js";

function parseParams(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // Bad JSON is the user's typo: a usage error that says where.
    throw new CliError(`--params is not valid JSON: ${(err as Error).message}`, ExitCode.usage);
  }
}

/** Calls one gateway method and prints its payload; exit 1 with `CODE: message` on an error response. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof callOptions>,
): Promise<number> {
  const method = args[0]?.trim();
  if (!method) throw new CliError("a method name is required, e.g. health", ExitCode.usage);
  if (method === "connect")
    throw new CliError("connect is the handshake, not a method", ExitCode.usage);
  const params = parseParams(opts.params);
  const target = resolveGatewayTarget(ctx, opts);
  const client = await connectForCli(ctx, target);
  try {
    const payload = await client.request(method, params, {
      expectFinal: opts.expectFinal === true,
      // A final answer (an agent run) may take far longer than the connect bound.
      ...(opts.expectFinal && opts.timeout === undefined ? { timeoutMs: 0 } : {}),
    });
    printJson(ctx, payload ?? null);
    return ExitCode.ok;
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    if (opts.json) {
      printJson(ctx, {
        ok: false,
        error: { code: err.code, message: err.message, details: err.details },
      });
    }
    throw new CliError(`${method} failed: ${describeGatewayError(err)}`);
  } finally {
    await client.close();
  }
}
