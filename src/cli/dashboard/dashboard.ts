// `pincer dashboard [--no-open] [--json]`: prints the Control UI URL of the configured gateway
// with a token link (never a token when auth is none or password), says whether a gateway answers
// there, and opens a browser only on a desktop terminal (or with --open): headless runs just print.
import { spawn } from "node:child_process";
import { connectionCauseOf } from "../../lib/connection-cause.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, ExitCode, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { dashboardOptions } from "./commands.js";
import { type DashboardTarget, resolveDashboardTarget } from "./url.js";

/** Options of `pincer dashboard`; `open` is undefined unless --open or --no-open was given. */
type DashboardOptions = Partial<OptionsOf<typeof dashboardOptions>>;

/** Whether a gateway answered at the URL, or why not. */
export interface GatewayProbe {
  running: boolean;
  detail: string;
}

/** What the command does beyond printing: probing the gateway and launching a browser. */
export interface DashboardDeps {
  probe: (baseUrl: string) => Promise<GatewayProbe>;
  /** Opens `url` in a browser; resolves to an error message when that failed. */
  openUrl: (url: string) => Promise<string | undefined>;
}

const PROBE_TIMEOUT_MS = 1500;

/** GET /health on the gateway's port with a short timeout; the failure named (refused, DNS, …). */
export async function probeGatewayHttp(baseUrl: string): Promise<GatewayProbe> {
  // The root /health, also when the UI sits under gateway.controlUi.basePath.
  const url = new URL("/health", baseUrl);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await res.body?.cancel();
    if (res.ok) return { running: true, detail: `answering at ${url.origin}` };
    return { running: false, detail: `${url.origin} answered HTTP ${res.status} to /health` };
  } catch (err) {
    const cause = connectionCauseOf(err, url.hostname);
    const why =
      cause?.detail ??
      ((err as Error).name === "TimeoutError"
        ? `no answer from ${url.origin} within ${PROBE_TIMEOUT_MS} ms`
        : String(err));
    return { running: false, detail: why };
  }
}

/** Launches the desktop's URL opener (xdg-open, open, start), detached. */
export function openInBrowser(url: string, platform: NodeJS.Platform): Promise<string | undefined> {
  const [command, args] =
    platform === "darwin"
      ? ["open", [url]]
      : platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  return new Promise((resolve) => {
    const child = spawn(command as string, args as string[], { detached: true, stdio: "ignore" });
    child.once("error", (err) => resolve(`could not run ${command}: ${err.message}`));
    child.once("spawn", () => {
      child.unref();
      resolve(undefined);
    });
  });
}

/** A browser is opened with --open, or by default on a terminal of a desktop session; never headless. */
export function shouldOpenBrowser(ctx: CliContext, open: boolean | undefined): boolean {
  if (open !== undefined) return open;
  const desktop =
    ctx.platform === "darwin" ||
    ctx.platform === "win32" ||
    Boolean(ctx.env.DISPLAY || ctx.env.WAYLAND_DISPLAY);
  return ctx.isTty && desktop;
}

function printHuman(ctx: CliContext, target: DashboardTarget, probe: GatewayProbe): void {
  const s = style(ctx);
  printLine(ctx, `Dashboard URL: ${target.url}`);
  printLine(
    ctx,
    probe.running
      ? `Gateway: ${s.green("running")}, ${probe.detail}`
      : `Gateway: ${s.yellow("not running")} (${probe.detail}); start it with: pincer gateway`,
  );
  for (const note of target.notes) printLine(ctx, s.dim(`note: ${note}`));
}

/** Runs the command with explicit dependencies (tests pass a recording opener). */
export async function dashboardWith(
  ctx: CliContext,
  opts: DashboardOptions,
  deps: DashboardDeps,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: false });
  const target = resolveDashboardTarget(loaded, loaded.env);
  if (!target.uiEnabled) {
    const message =
      "the Control UI is turned off (gateway.controlUi.enabled: false); set it to true to serve the UI";
    if (opts.json) printJson(ctx, { ok: false, error: message, url: target.baseUrl });
    else ctx.stderr(`error: ${message}\n`);
    return ExitCode.failure;
  }
  const probe = await deps.probe(target.baseUrl);
  const open = shouldOpenBrowser(ctx, opts.open);
  const openError = open ? await deps.openUrl(target.url) : undefined;
  if (opts.json) {
    printJson(ctx, {
      ok: true,
      url: target.url,
      baseUrl: target.baseUrl,
      authMode: target.authMode,
      tokenIncluded: target.tokenIncluded,
      gateway: probe,
      opened: open && openError === undefined,
      notes: target.notes,
    });
    return ExitCode.ok;
  }
  printHuman(ctx, target, probe);
  if (openError) printLine(ctx, `could not open a browser (${openError}); open the URL above`);
  else if (open) printLine(ctx, "opened in your browser");
  return ExitCode.ok;
}

/** Runs `pincer dashboard`. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof dashboardOptions>,
): Promise<number> {
  const openUrl = (url: string) => openInBrowser(url, ctx.platform);
  return dashboardWith(ctx, opts, { probe: probeGatewayHttp, openUrl });
}
