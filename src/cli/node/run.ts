// `pincer node run --url ws(s)://host:port [--token …] [--display-name …] [--roots <dir,…>]
// [--allow <exe,…>]`: runs the node host (src/node-host) until SIGINT/SIGTERM. Its identity and
// device token live in this profile's state dir (OPENCLAW_STATE_DIR), not the gateway's.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { findPackageRoot } from "../../lib/package-root.js";
import { realRoots } from "../../node-host/roots.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import { resolveGatewayTarget } from "../gateway-client-options.js";
import type { nodeRunOptions } from "./commands.js";

function listOf(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Pincer's version, from its package.json wherever this module runs (src/, dist/ or dist/bin/). */
function packageVersion(): string {
  const root = findPackageRoot(import.meta.url);
  if (!root) return "0.0.0";
  const text = readFileSync(join(root, "package.json"), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

/** Runs the node host; exit 0 on a stop signal, 2 on bad flags, 1 when it cannot start. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof nodeRunOptions>,
): Promise<number> {
  const target = resolveGatewayTarget(ctx, opts);
  const roots = await realRoots(listOf(opts.roots)).catch((err: unknown) => {
    throw new CliError(`--roots: ${(err as Error).message}`, ExitCode.usage);
  });
  const allow = listOf(opts.allow);
  const { runNodeHost } = await import("../../node-host/node-host.js");
  const stop = new AbortController();
  const dispose = ctx.onSignal(["SIGINT", "SIGTERM"], () => stop.abort());
  try {
    await runNodeHost({
      url: target.url,
      ...(target.token ? { token: target.token } : {}),
      ...(target.password ? { password: target.password } : {}),
      displayName: opts.displayName?.trim() || hostname(),
      stateDir: target.loaded.paths.stateDir,
      policy: { allow, roots, env: { ...ctx.env } },
      version: packageVersion(),
      platform: ctx.platform,
      timeoutMs: target.timeoutMs,
      log: (line) => printLine(ctx, `node: ${line}`),
      signal: stop.signal,
    });
  } finally {
    dispose();
  }
  printLine(ctx, "node: stopped");
  return ExitCode.ok;
}
