// `pincer models list [--provider P] [--json]`: custom models of `models.providers` and pi-ai's
// built-in catalog, marking the ones agents are configured to use (and configured refs that
// resolve to nothing).

import {
  type CatalogModel,
  closeMatches,
  formatModelRef,
  listKnownProviders,
  listModels,
  normalizeProviderId,
  resolveAgentModelChain,
  resolveModel,
} from "../../runtime/models/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { listOptions } from "./commands.js";

/** A catalog row plus the agents that use it (`main:primary`, `work:fallback`). */
export interface ModelsListRow extends Partial<CatalogModel> {
  ref: string;
  configuredFor: string[];
  missing?: string;
}

function compactTokens(count: number | undefined): string {
  if (count === undefined) return "-";
  if (count >= 1_000_000) return `${Math.round(count / 100_000) / 10}M`;
  return count >= 1000 ? `${Math.round(count / 1000)}k` : String(count);
}

/** Lists models; `--provider` narrows to one provider (an unknown one is an error). */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.config;
  const provider = opts.provider === undefined ? undefined : normalizeProviderId(opts.provider);
  const known = listKnownProviders(cfg);
  if (provider !== undefined && !known.includes(provider)) {
    const near = closeMatches(provider, known);
    const hint = near.length ? `did you mean ${near.join(" or ")}?` : `known: ${known.join(", ")}`;
    throw new CliError(`unknown provider "${opts.provider}"; ${hint}`);
  }
  const usage = new Map<string, string[]>();
  for (const { id: agentId } of loaded.resolved.agents) {
    for (const link of resolveAgentModelChain({ cfg: loaded.resolved, agentId }).links) {
      const key = formatModelRef(link.ref);
      usage.set(key, [...(usage.get(key) ?? []), `${agentId}:${link.role}`]);
    }
  }
  const rows: ModelsListRow[] = listModels({
    cfg,
    env: loaded.env,
    ...(provider ? { provider } : {}),
  }).map((model) => ({ ...model, configuredFor: usage.get(model.ref) ?? [] }));
  const listed = new Set(rows.map((row) => row.ref));
  for (const [ref, agents] of usage) {
    if (listed.has(ref) || (provider !== undefined && !ref.startsWith(`${provider}/`))) continue;
    const [head, ...tail] = ref.split("/");
    const resolved = resolveModel({
      cfg,
      ref: { provider: head, model: tail.join("/") },
      env: loaded.env,
    });
    rows.unshift(
      resolved.ok
        ? {
            ref,
            configuredFor: agents,
            api: resolved.model.api,
            contextWindow: resolved.model.contextWindow,
            source: "custom",
          }
        : { ref, configuredFor: agents, missing: resolved.error },
    );
  }
  if (opts.json) {
    printJson(ctx, { models: rows });
    return 0;
  }
  const s = style(ctx);
  const configured = rows.filter((row) => row.configuredFor.length > 0).length;
  printLine(ctx, s.bold(`Models (${rows.length}, ${configured} configured for agents)`));
  const cells = rows.map((row) => [
    row.ref,
    row.api ?? "-",
    compactTokens(row.contextWindow),
    row.source ?? "missing",
    row.configuredFor.join(", "),
  ]);
  const header = ["MODEL", "API", "CONTEXT", "SOURCE", "CONFIGURED"];
  const widths = header.map((title, col) =>
    Math.max(title.length, ...cells.map((cell) => cell[col].length)),
  );
  const line = (cell: string[]) =>
    cell
      .map((text, col) => text.padEnd(widths[col]))
      .join("  ")
      .trimEnd();
  printLine(ctx, s.dim(line(header)));
  cells.forEach((cell, index) => {
    const row = rows[index];
    const text = line(cell);
    printLine(ctx, row.missing ? s.red(text) : row.configuredFor.length ? s.green(text) : text);
    if (row.missing) printLine(ctx, s.red(`  ${row.missing}`));
  });
  return 0;
}
