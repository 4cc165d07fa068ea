// `pincer models status [--agent ID] [--json] [--check]`: each agent's primary and fallbacks, and
// for each the credential a run would use (profile id or env var, never the secret), what is in
// cooldown or missing, and any model-policy breach.

import { selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import { importLegacyForAgent } from "./auth-common.js";
import type { statusOptions } from "./commands.js";
import {
  type AgentModelStatus,
  agentModelStatus,
  type ModelStatusRow,
  missingCredentialHint,
} from "./common.js";

function isBroken(row: ModelStatusRow): boolean {
  return !!row.modelError || !row.credential || row.policy?.onMismatch === "fail";
}

function credentialText(row: ModelStatusRow): string {
  const cred = row.credential;
  if (!cred) return "";
  const label =
    cred.source === "env"
      ? `env ${cred.id.slice(4)}`
      : cred.source === "config"
        ? "config apiKey"
        : `profile ${cred.id}`;
  const more = row.alternatives.length
    ? ` (+${row.alternatives.length} more: ${row.alternatives.join(", ")})`
    : "";
  const refresh = cred.needsRefresh ? " [OAuth token due: refreshed on use]" : "";
  return `${label} (${cred.kind})${refresh}${more}`;
}

function printAgent(ctx: CliContext, input: { status: AgentModelStatus; home: string }): void {
  const { status, home } = input;
  const s = style(ctx);
  const mark = status.isDefault ? s.green(" [default]") : "";
  printLine(
    ctx,
    `${s.bold(`Agent ${s.cyan(status.agentId)}`)}${mark}  ${s.dim(displayPath(status.agentDir, home))}`,
  );
  let fallback = 0;
  const labels = status.models.map((row) =>
    row.role === "primary" ? "primary" : `fallback ${++fallback}`,
  );
  const labelWidth = Math.max(...labels.map((label) => label.length));
  const refWidth = Math.max(...status.models.map((row) => row.ref.length));
  status.models.forEach((row, index) => {
    const head = `  ${labels[index].padEnd(labelWidth)}  ${row.ref.padEnd(refWidth)}  `;
    const provider = row.ref.slice(0, row.ref.indexOf("/"));
    const cred = row.credential
      ? credentialText(row)
      : s.red(`no credential: ${missingCredentialHint(status.agentId, provider)}`);
    printLine(ctx, `${head}${cred}`);
    const pad = " ".repeat(6 + labelWidth + refWidth);
    if (row.alias) printLine(ctx, s.dim(`${pad}alias ${row.alias}`));
    if (row.modelError) printLine(ctx, `${pad}${s.red(`model: ${row.modelError}`)}`);
    if (row.policy) {
      const paint = row.policy.onMismatch === "fail" ? s.red : s.yellow;
      printLine(ctx, `${pad}${paint(`policy (${row.policy.onMismatch}): ${row.policy.reason}`)}`);
    }
    if (row.storeError) printLine(ctx, `${pad}${s.red(row.storeError)}`);
    for (const skipped of row.skipped)
      printLine(ctx, s.yellow(`${pad}${skipped.id}: ${skipped.detail}`));
  });
  const params = Object.entries(status.params);
  if (params.length) {
    const text = params.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(" ");
    printLine(ctx, `  ${"params".padEnd(labelWidth)}  ${s.dim(text)}`);
  }
  for (const problem of status.problems)
    printLine(ctx, s.red(`  ${problem.path}: ${problem.message}`));
}

/** Shows the resolved models and credentials of one agent (`--agent`) or of every agent. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof statusOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.resolved;
  const agents = opts.agent ? [selectAgent(loaded, opts.agent).agent] : cfg.agents;
  // Legacy credential files join auth-profiles.json first, so the status shows them.
  for (const agent of agents) await importLegacyForAgent(ctx, { loaded, agent });
  const now = Date.now();
  const statuses = agents.map((agent) => agentModelStatus({ cfg, agent, env: loaded.env, now }));
  const broken = statuses.some(
    (status) => status.problems.length > 0 || status.models.some(isBroken),
  );
  if (opts.json) {
    printJson(ctx, { agents: statuses });
  } else {
    statuses.forEach((status, index) => {
      if (index > 0) printLine(ctx);
      printAgent(ctx, { status, home: loaded.paths.home });
    });
  }
  return opts.check && broken ? 1 : 0;
}
