// `pincer sandbox explain [--agent ID] [--session KEY] [--json]`: whether a session is sandboxed and
// every setting that shapes its sandbox, each with the config key that decided it, plus the tool
// policy that applies in it (the sandbox tool policy included).
import { lookupAgent } from "../../config/resolve.js";
import { resolveAgentIdFromSessionKey } from "../../routing/index.js";
import { resolveEffectiveSandbox, type Sourced } from "../../runtime/sandbox/config.js";
import { resolveSandboxSpec, sandboxWorkspaceRoot } from "../../runtime/sandbox/spec.js";
import { PINCER_TOOL_NAMES } from "../../runtime/tools/catalog.js";
import { resolveToolPolicy } from "../../runtime/tools/policy.js";
import { resolveSessionSandbox } from "../../runtime/tools/sandbox-policy.js";
import { selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { explainOptions } from "./commands.js";

function line<T>(label: string, sourced: Sourced<T>): string {
  const value = sourced.value === undefined ? "(unset)" : JSON.stringify(sourced.value);
  return `  ${label.padEnd(16)}${value}  (${sourced.source})`;
}

/** Explains the sandbox of one session (default: the agent's main session). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof explainOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.resolved;
  const requested =
    opts.agent ??
    (opts.session ? resolveAgentIdFromSessionKey(opts.session, cfg.defaultAgentId) : undefined);
  const { agentId } = selectAgent(loaded, requested);
  const session = resolveSessionSandbox({
    cfg,
    agentId,
    ...(opts.session ? { sessionKey: opts.session } : { sessionKey: "main" }),
  });
  const sessionKey = opts.session ?? session.mainSessionKey;
  const effective = resolveEffectiveSandbox(cfg, agentId);
  const spec = resolveSandboxSpec({
    cfg,
    agentId,
    sessionKey,
    agentWorkspace: lookupAgent(cfg, agentId).workspace,
  });
  const policy = resolveToolPolicy({ cfg, agentId, sandboxed: session.sandboxed });
  const tools = PINCER_TOOL_NAMES.map((name) => ({
    name,
    allowed: policy.allows(name),
    why: policy.explain(name),
  }));
  const why = session.sandboxed
    ? session.mode === "all"
      ? `mode "all" sandboxes every session (${session.source})`
      : `mode "non-main" sandboxes every session but ${session.mainSessionKey} (${session.source})`
    : session.mode === "off"
      ? `mode "off" (${session.source ?? "default"}): tools run on the host`
      : `this is the main session ${session.mainSessionKey}, which mode "non-main" leaves on the host (${session.source})`;
  const report = {
    agentId,
    sessionKey,
    sandboxed: session.sandboxed,
    mode: { value: session.mode, source: session.source ?? "default" },
    why,
    backend: effective.backend,
    scope: effective.scope,
    workspaceAccess: effective.workspaceAccess,
    workspaceRoot: {
      value: sandboxWorkspaceRoot(cfg, effective),
      source: effective.workspaceRoot.source,
    },
    docker: effective.docker,
    prune: effective.prune,
    ...(spec.ok
      ? {
          scopeKey: spec.value.scopeKey,
          workspaceDir: spec.value.workspaceDir,
          configHash: spec.value.configHash,
        }
      : { error: spec.error }),
    tools,
  };
  if (opts.json) {
    printJson(ctx, report);
    return 0;
  }
  const s = style(ctx);
  printLine(ctx, s.bold(`Sandbox of agent ${agentId}, session ${sessionKey}`));
  printLine(ctx, `  sandboxed       ${session.sandboxed ? s.yellow("yes") : "no"} — ${why}`);
  printLine(ctx, line("backend", effective.backend));
  printLine(ctx, line("scope", effective.scope));
  printLine(ctx, line("workspaceAccess", effective.workspaceAccess));
  printLine(ctx, line("workspaceRoot", report.workspaceRoot));
  if (spec.ok) {
    printLine(
      ctx,
      `  /workspace is   ${spec.value.workspaceDir}${spec.value.workspaceAccess === "ro" ? " (read-only)" : ""}`,
    );
    printLine(ctx, `  instance        ${spec.value.scopeKey}  hash ${spec.value.configHash}`);
  } else printLine(ctx, s.red(`  error           ${spec.error}`));
  printLine(ctx, line("image", effective.docker.image));
  printLine(ctx, line("network", effective.docker.network));
  printLine(ctx, line("setupCommand", effective.docker.setupCommand));
  printLine(ctx, line("binds", effective.docker.binds));
  printLine(ctx, s.bold(session.sandboxed ? "Tools (sandbox tool policy applies):" : "Tools:"));
  for (const tool of tools)
    printLine(ctx, `  ${tool.allowed ? s.green("✓") : s.red("✗")} ${tool.why}`);
  return 0;
}
