// The address a browser opens for the Control UI the gateway serves on its own port (`/`, or
// `gateway.controlUi.basePath` + `/`): the real bound port (also when port 0 was asked), a wildcard
// listen address shown as loopback, IPv6 in brackets. No URL when the UI is off
// (`gateway.controlUi.enabled: false`), not built, or its base path is refused.
import { normalizeUiBasePath } from "./ui-base-path.js";

/** Inputs of {@link webchatUrl}. */
export interface WebchatUrlParams {
  /** The address the gateway listens on (`127.0.0.1`, `0.0.0.0`, a tailnet or custom address). */
  host: string;
  /** The bound port. */
  port: number;
  /** `gateway.controlUi.enabled` as configured (only `false` turns the UI off). */
  enabled: unknown;
  /** Whether the built UI (its index.html) is there to serve. */
  uiAvailable: boolean;
  /** `gateway.controlUi.basePath` as configured. */
  basePath?: unknown;
}

/** The http:// URL of the UI, or undefined when the gateway serves none. */
export function webchatUrl(params: WebchatUrlParams): string | undefined {
  const base = normalizeUiBasePath(params.basePath);
  if (params.enabled === false || !params.uiAvailable || !base.ok) return undefined;
  let host = params.host;
  if (host === "0.0.0.0" || host === "") host = "127.0.0.1";
  else if (host === "::" || host === "[::]") host = "::1";
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${urlHost}:${params.port}${base.path}/`;
}
