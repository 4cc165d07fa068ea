// `pincer doctor [--fix] [--yes] [--non-interactive] [--offline] [--json]`: checks the config, the state
// dir's permissions, stale locks, orphan transcripts, missing workspaces and unreachable providers; one
// line per finding with its severity. `--fix` (alias `--repair`; `--yes` consents the same way) applies
// only the safe repairs, then checks again and reports what remains. Exits 1 while an error or warning
// remains, 0 otherwise (info findings never fail).

import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, ExitCode, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { doctorOptions } from "./commands.js";
import { configCheck } from "./config.js";
import { type DoctorCheck, type DoctorFinding, type DoctorScope, errorText } from "./finding.js";
import { locksCheck } from "./locks.js";
import { orphansCheck } from "./orphans.js";
import { permissionsCheck } from "./permissions.js";
import { providersCheck } from "./providers.js";
import { workspacesCheck } from "./workspaces.js";

/** The checks, in the order they are reported. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  configCheck,
  permissionsCheck,
  locksCheck,
  orphansCheck,
  workspacesCheck,
  providersCheck,
];

/** One repair `--fix` tried. */
export interface DoctorRepairResult {
  checkId: string;
  action: string;
  path?: string;
  ok: boolean;
  error?: string;
}

/** Runs every check; a check that throws becomes an error finding instead of stopping the others. */
export async function runDoctorChecks(scope: DoctorScope): Promise<DoctorFinding[]> {
  const results = await Promise.all(
    DOCTOR_CHECKS.map(async (check) => {
      try {
        return await check.detect(scope);
      } catch (err) {
        return [
          {
            checkId: check.id,
            severity: "error",
            message: `the ${check.id} check failed: ${errorText(err)}`,
          } satisfies DoctorFinding,
        ];
      }
    }),
  );
  return results.flat();
}

async function applyRepairs(findings: DoctorFinding[]): Promise<DoctorRepairResult[]> {
  const results: DoctorRepairResult[] = [];
  for (const finding of findings) {
    if (!finding.repair) continue;
    const base = {
      checkId: finding.checkId,
      action: finding.repair.action,
      ...(finding.path ? { path: finding.path } : {}),
    };
    try {
      await finding.repair.apply();
      results.push({ ...base, ok: true });
    } catch (err) {
      results.push({ ...base, ok: false, error: errorText(err) });
    }
  }
  return results;
}

/** True when a finding counts as a problem for the exit code. */
const isProblem = (finding: DoctorFinding) => finding.severity !== "info";

function where(finding: DoctorFinding): string {
  if (finding.checkId !== "config" || !finding.path || finding.line === undefined) return "";
  return ` (${finding.path}:${finding.line}${finding.column !== undefined ? `:${finding.column}` : ""})`;
}

function printHuman(
  ctx: CliContext,
  params: { findings: DoctorFinding[]; repairs: DoctorRepairResult[]; fixing: boolean },
): void {
  const s = style(ctx);
  const label = {
    error: s.red("error  "),
    warning: s.yellow("warning"),
    info: s.dim("info   "),
  };
  for (const repair of params.repairs) {
    printLine(
      ctx,
      repair.ok
        ? `${s.green("fixed  ")} [${repair.checkId}] ${repair.action}`
        : `${s.red("failed ")} [${repair.checkId}] ${repair.action}: ${repair.error}`,
    );
  }
  for (const finding of params.findings) {
    const hint =
      finding.repair && !params.fixing ? "pincer doctor --fix repairs this" : finding.fixHint;
    const fix = hint && finding.severity !== "info" ? s.dim(` — fix: ${hint}`) : "";
    printLine(
      ctx,
      `${label[finding.severity]} [${finding.checkId}] ${finding.message}${where(finding)}${fix}`,
    );
  }
  const errors = params.findings.filter((f) => f.severity === "error").length;
  const warnings = params.findings.filter((f) => f.severity === "warning").length;
  const fixable = params.findings.filter((f) => f.repair).length;
  if (errors + warnings === 0) {
    printLine(ctx, s.green(params.repairs.length > 0 ? "no problems remain" : "no problems found"));
    return;
  }
  const tail =
    !params.fixing && fixable > 0 ? `; ${fixable} can be fixed with pincer doctor --fix` : "";
  printLine(ctx, `${errors} error(s), ${warnings} warning(s)${tail}`);
}

/** Runs the checks (and, with --fix, the safe repairs then the checks again) and reports. */
export async function doctorWith(
  ctx: CliContext,
  opts: Partial<OptionsOf<typeof doctorOptions>>,
  now: () => number = Date.now,
): Promise<number> {
  const fixing = opts.fix === true || opts.repair === true || opts.yes === true;
  const scopeFor = (): DoctorScope => {
    const loaded = loadForCli(ctx, { requireValid: false });
    return {
      loaded,
      env: loaded.env,
      offline: opts.offline === true,
      now,
      platform: ctx.platform,
    };
  };
  let findings = await runDoctorChecks(scopeFor());
  let repairs: DoctorRepairResult[] = [];
  if (fixing && findings.some((finding) => finding.repair)) {
    repairs = await applyRepairs(findings);
    // Judge the result by checking again, not by trusting the repairs.
    findings = await runDoctorChecks(scopeFor());
  }
  const scope = scopeFor();
  if (opts.json) {
    printJson(ctx, {
      ok: !findings.some(isProblem),
      stateDir: scope.loaded.paths.stateDir,
      configPath: scope.loaded.path,
      fix: fixing,
      findings: findings.map(({ repair, ...finding }) => ({
        ...finding,
        fixable: repair !== undefined,
      })),
      repairs,
    });
  } else {
    printHuman(ctx, { findings, repairs, fixing });
  }
  return findings.some(isProblem) ? ExitCode.failure : ExitCode.ok;
}

/** Runs `pincer doctor`. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof doctorOptions>,
): Promise<number> {
  return doctorWith(ctx, opts);
}
