// The webhook settings of `hooks` as the HTTP route uses them, read per request (a reload applies at
// once): on/off, the base path (default `/hooks`, never `/`), the token (string, `${VAR}` or an env
// SecretRef; required when enabled), the body cap (default 256 KiB) and the mappings. A setting that
// cannot work is a problem naming the key: the route then stays off (fail closed).
import { readSecretInput } from "../../channels/secret-input.js";
import type { HookMappingConfig, HooksConfig } from "../../protocol/config/index.js";

/** `hooks.path` when unset. */
export const DEFAULT_HOOKS_PATH = "/hooks";
/** `hooks.maxBodyBytes` when unset (OpenClaw's 256 KiB). */
export const DEFAULT_HOOKS_MAX_BODY_BYTES = 256 * 1024;

/** The usable settings. */
export interface WebhookSettings {
  basePath: string;
  token: string;
  maxBodyBytes: number;
  mappings: readonly HookMappingConfig[];
  config: HooksConfig;
}

/** Settings, off (not enabled), or a problem that keeps the route off. */
export type WebhookSettingsResult =
  | { status: "on"; settings: WebhookSettings }
  | { status: "off" }
  | { status: "invalid"; problem: string };

const PATH_FORM = /^\/[A-Za-z0-9/_.~-]{0,255}$/;

/** Normalizes `hooks.path`: leading `/`, no trailing `/`; undefined when unusable. */
export function normalizeHooksPath(raw: unknown): string | undefined {
  if (raw === undefined) return DEFAULT_HOOKS_PATH;
  if (typeof raw !== "string") return undefined;
  const trimmed = raw.trim().replace(/\/+$/, "");
  const path = trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
  if (path === "/" || !PATH_FORM.test(path) || path.includes("//")) return undefined;
  if (/(^|\/)\.\.?(\/|$)/.test(path)) return undefined;
  return path;
}

/** Reads the webhook settings from `hooks` and the effective env. */
export function resolveWebhookSettings(
  hooks: HooksConfig | undefined,
  env: Record<string, string | undefined>,
): WebhookSettingsResult {
  if (hooks?.enabled !== true) return { status: "off" };
  const basePath = normalizeHooksPath(hooks.path);
  if (!basePath) {
    return {
      status: "invalid",
      problem: `hooks.path ${JSON.stringify(hooks.path)} must be a sub-path such as /hooks (not /)`,
    };
  }
  const token = readSecretInput({ key: "hooks.token", value: hooks.token, env });
  if (token.problem) return { status: "invalid", problem: token.problem };
  if (!token.value) {
    return {
      status: "invalid",
      problem:
        "hooks.enabled is true but hooks.token is not set: set hooks.token (a dedicated secret)",
    };
  }
  const cap = hooks.maxBodyBytes;
  const maxBodyBytes =
    typeof cap === "number" && Number.isFinite(cap) && cap > 0
      ? Math.floor(cap)
      : DEFAULT_HOOKS_MAX_BODY_BYTES;
  return {
    status: "on",
    settings: {
      basePath,
      token: token.value,
      maxBodyBytes,
      mappings: hooks.mappings ?? [],
      config: hooks,
    },
  };
}
