// The settings one WhatsApp Cloud API account runs with: the phone number id it sends from, the
// Graph API bearer token, the app secret webhook signatures are checked with and the handshake's
// verify token (all four required: without the secret no webhook could be trusted, so the account
// does not start), the Graph root and version, the webhook path and the inbound media cap.
// Secrets may be inline, `${VAR}` or an env SecretRef.
import { type ChannelAccountConfig, positiveNumber, readSecretInput } from "../../index.js";

/** Meta's Graph API; `apiRoot` replaces it (a proxy, or a fake in tests). */
export const GRAPH_API_ROOT = "https://graph.facebook.com";
/** Graph API version used when `apiVersion` is not set. */
export const DEFAULT_GRAPH_VERSION = "v21.0";

const DEFAULT_MEDIA_MAX_MB = 5;
const DEFAULT_TIMEOUT_SECONDS = 30;
const REQUIRED = ["phoneNumberId", "accessToken", "appSecret", "verifyToken"] as const;

/** What a running Cloud API account needs. */
export interface CloudAccountSettings {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  /** `{apiRoot}/{apiVersion}`, no trailing slash. */
  graphBase: string;
  webhookPath: string;
  /** Inbound images up to this size are downloaded into `data`. */
  mediaMaxBytes: number;
  /** Timeout of one Graph API request. */
  timeoutMs: number;
}

/** Settings, or why the account cannot run (naming every missing or bad key). */
export type CloudSettingsResult =
  | { ok: true; settings: CloudAccountSettings }
  | { ok: false; error: string };

/** The default webhook path of an account. */
export function defaultWebhookPath(accountId: string): string {
  return `/webhooks/whatsapp/${accountId}`;
}

/** Resolves an account's settings from its merged config; pure. `accountId` names the default
 *  webhook path (validation without one checks the keys only). */
export function resolveCloudSettings(params: {
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  accountId?: string;
}): CloudSettingsResult {
  const { config, env } = params;
  const values: Partial<Record<(typeof REQUIRED)[number], string>> = {};
  const missing: string[] = [];
  const problems: string[] = [];
  for (const key of REQUIRED) {
    const read =
      key === "phoneNumberId"
        ? readSecretInput({
            key: key,
            value: typeof config[key] === "number" ? String(config[key]) : config[key],
            env,
          })
        : readSecretInput({ key: key, value: config[key], env });
    if (read.problem) problems.push(read.problem);
    else if (read.value === undefined) missing.push(key);
    else values[key] = read.value;
  }
  if (values.phoneNumberId !== undefined && !/^\d+$/.test(values.phoneNumberId))
    problems.push(
      `phoneNumberId "${values.phoneNumberId}" is not a Graph phone number id (digits)`,
    );
  const rawVersion = typeof config.apiVersion === "string" ? config.apiVersion.trim() : "";
  if (rawVersion && !/^v\d+\.\d+$/.test(rawVersion))
    problems.push(`apiVersion "${rawVersion}" is not a Graph API version like v21.0`);
  const rawPath = typeof config.webhookPath === "string" ? config.webhookPath.trim() : "";
  if (rawPath && !rawPath.startsWith("/"))
    problems.push(`webhookPath "${rawPath}" must start with /`);
  if (missing.length > 0 || problems.length > 0) {
    const parts = [];
    if (missing.length > 0)
      parts.push(
        `missing ${missing.join(", ")} (appSecret and verifyToken are required: webhooks are only accepted when signed)`,
      );
    parts.push(...problems);
    return { ok: false, error: `whatsapp cloud: ${parts.join("; ")}` };
  }
  const rawRoot = typeof config.apiRoot === "string" ? config.apiRoot.trim() : "";
  const root = (rawRoot || GRAPH_API_ROOT).replace(/\/+$/, "");
  const accountId = params.accountId ?? "default";
  return {
    ok: true,
    settings: {
      phoneNumberId: values.phoneNumberId!,
      accessToken: values.accessToken!,
      appSecret: values.appSecret!,
      verifyToken: values.verifyToken!,
      graphBase: `${root}/${rawVersion || DEFAULT_GRAPH_VERSION}`,
      webhookPath: rawPath || defaultWebhookPath(accountId),
      mediaMaxBytes: positiveNumber(config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      timeoutMs: positiveNumber(config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000,
    },
  };
}
