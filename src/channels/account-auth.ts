// What credentials a channel account has, for `pincer channels list --json` (`auth[]` per account):
// which key is configured, where its value comes from (inline config, an env var, a file, a command)
// and whether it is there — never the secret itself.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { expandHome } from "../config/paths.js";
import { TELEGRAM_TOKEN_ENV } from "./telegram/account-settings.js";
import type { ChannelAccountConfig } from "./types.js";
import { readLinkedIdentity } from "./whatsapp/web/auth-dir.js";
import { resolveWhatsAppAuthDir, WHATSAPP_CREDS_FILE } from "./whatsapp/web/auth-dir-path.js";

/** One credential of an account. `present` is absent when it cannot be known without running it. */
export interface AccountAuthEntry {
  /** The config key (`botToken`, `tokenFile`, ...), or the key an env fallback stands for. */
  key: string;
  /** config: inline value; env: an environment variable; file: a file; exec: a command. */
  source: "config" | "env" | "file" | "exec";
  present?: boolean;
  /** The variable read (source env). */
  env?: string;
  /** The file read (source file). */
  file?: string;
}

/** Keys holding a secret value (inline, `${VAR}` or a SecretRef). */
const SECRET_KEYS = [
  "botToken",
  "token",
  "appToken",
  "userToken",
  "signingSecret",
  "webhookSecret",
  "accessToken",
  "appSecret",
  "verifyToken",
  "password",
  "apiKey",
  "appPassword",
] as const;
/** Keys naming a file that holds the credential. */
const FILE_KEYS = ["tokenFile", "serviceAccountFile"] as const;

/** Env vars a channel's default account falls back to when the key is not configured. */
const ENV_FALLBACKS: Readonly<Record<string, ReadonlyArray<{ key: string; env: string }>>> = {
  telegram: [{ key: "botToken", env: TELEGRAM_TOKEN_ENV }],
  discord: [{ key: "token", env: "DISCORD_BOT_TOKEN" }],
  slack: [
    { key: "botToken", env: "SLACK_BOT_TOKEN" },
    { key: "appToken", env: "SLACK_APP_TOKEN" },
  ],
};

/** Inputs of {@link describeAccountAuth}. */
export interface DescribeAccountAuthParams {
  channel: string;
  accountId: string;
  /** The account's merged settings (`resolveAccountConfig`). */
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  /** The state dir, where a WhatsApp Web account's auth dir is by default. */
  stateDir?: string;
}

const envSet = (env: DescribeAccountAuthParams["env"], name: string) =>
  (env[name]?.trim() ?? "") !== "";

function fileEntry(key: string, path: string, env: DescribeAccountAuthParams["env"]) {
  const file = expandHome(path.trim(), env.HOME ?? homedir());
  return { key, source: "file" as const, file, present: existsSync(file) };
}

function secretEntry(
  key: string,
  value: unknown,
  env: DescribeAccountAuthParams["env"],
): AccountAuthEntry | undefined {
  if (typeof value === "string") {
    const placeholder = /^\s*\$\{([A-Za-z_][A-Za-z0-9_]*)\}\s*$/.exec(value);
    if (placeholder?.[1])
      return { key, source: "env", env: placeholder[1], present: envSet(env, placeholder[1]) };
    return { key, source: "config", present: value.trim() !== "" };
  }
  if (typeof value !== "object" || value === null) return undefined;
  const ref = value as { source?: unknown; id?: unknown };
  const id = typeof ref.id === "string" ? ref.id : "";
  if (ref.source === "env") return { key, source: "env", env: id, present: envSet(env, id) };
  if (ref.source === "file") return fileEntry(key, id, env);
  return { key, source: "exec" };
}

/** The account's credentials: each configured key, then env fallbacks of the default account. */
export function describeAccountAuth(params: DescribeAccountAuthParams): AccountAuthEntry[] {
  const { config, env } = params;
  const out: AccountAuthEntry[] = [];
  for (const key of SECRET_KEYS) {
    const entry = secretEntry(key, config[key], env);
    if (entry) out.push(entry);
  }
  for (const key of FILE_KEYS) {
    const path = config[key];
    if (typeof path === "string" && path.trim() !== "") out.push(fileEntry(key, path, env));
  }
  const linked = whatsAppWebLink(params);
  if (linked) out.push(linked);
  if (params.accountId === "default") {
    for (const fallback of ENV_FALLBACKS[params.channel] ?? []) {
      if (out.some((entry) => entry.key === fallback.key)) continue;
      if (fallback.key === "botToken" && out.some((entry) => entry.key === "tokenFile")) continue;
      out.push({ ...fallback, source: "env", present: envSet(env, fallback.env) });
    }
  }
  return out;
}

/** A WhatsApp Web account's credentials are its linked auth dir (`creds.json` naming the device):
 *  present once `pincer channels login` linked it. */
function whatsAppWebLink(params: DescribeAccountAuthParams): AccountAuthEntry | undefined {
  if (params.channel !== "whatsapp" || params.config.transport === "cloud" || !params.stateDir) {
    return undefined;
  }
  const dir = resolveWhatsAppAuthDir({
    config: params.config,
    stateDir: params.stateDir,
    accountId: params.accountId,
    env: params.env,
  });
  if (!dir.ok) return undefined;
  const file = join(dir.authDir, WHATSAPP_CREDS_FILE);
  return {
    key: "authDir",
    source: "file",
    file,
    present: readLinkedIdentity(dir.authDir) !== undefined,
  };
}
