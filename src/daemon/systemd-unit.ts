// The systemd user unit that supervises the gateway: its name (OpenClaw's `openclaw-gateway`, with
// `-<profile>` for a profile), its path under ~/.config/systemd/user, and its text. The unit runs
// this node binary on this package's CLI (`gateway run`) and restarts it whenever it exits.
import { join } from "node:path";

/** Unit name of the default profile, as OpenClaw names it. */
export const GATEWAY_SYSTEMD_SERVICE_NAME = "openclaw-gateway";

/** `openclaw-gateway`, or `openclaw-gateway-<profile>` for a non-default profile. */
export function resolveGatewayServiceName(profile?: string): string {
  const trimmed = profile?.trim();
  if (!trimmed || trimmed.toLowerCase() === "default") return GATEWAY_SYSTEMD_SERVICE_NAME;
  return `${GATEWAY_SYSTEMD_SERVICE_NAME}-${trimmed}`;
}

/** `$XDG_CONFIG_HOME/systemd/user/<name>.service` (default `~/.config/...`). */
export function resolveGatewayUnitPath(params: {
  env: Record<string, string | undefined>;
  home: string;
  serviceName: string;
}): string {
  const configHome = params.env.XDG_CONFIG_HOME?.trim() || join(params.home, ".config");
  return join(configHome, "systemd", "user", `${params.serviceName}.service`);
}

/** Quotes one ExecStart/Environment word for systemd (`%` doubled, quotes when needed). */
export function quoteSystemdWord(word: string): string {
  const escaped = word.replaceAll("%", "%%");
  if (escaped !== "" && !/[\s"'\\;]/.test(escaped)) return escaped;
  return `"${escaped.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** Inputs of {@link renderGatewayUnit}. */
export interface GatewayUnitParams {
  description: string;
  /** Program and arguments: node, the CLI script, `gateway run …`. */
  execStart: string[];
  /** Environment lines, in order (e.g. OPENCLAW_STATE_DIR, OPENCLAW_CONFIG_PATH). */
  environment: Array<[string, string]>;
}

/** The text of the unit file. */
export function renderGatewayUnit(params: GatewayUnitParams): string {
  const env = params.environment.map(
    ([key, value]) => `Environment=${quoteSystemdWord(`${key}=${value}`)}`,
  );
  return [
    "[Unit]",
    `Description=${params.description}`,
    "After=network-online.target",
    "Wants=network-online.target",
    "",
    "[Service]",
    `ExecStart=${params.execStart.map(quoteSystemdWord).join(" ")}`,
    "Restart=always",
    "RestartSec=5",
    "KillMode=process",
    "TimeoutStopSec=30",
    ...env,
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}
