// The settings one WhatsApp Web account runs with, read from its resolved config (the channel's
// keys with the account's over them): where its auth state lives, self-chat, read receipts, the ack
// reaction, the media cap and the text chunk limit. Every key read here is in the config schema
// (`src/protocol/config/whatsapp-web.ts` and the shared channel shape).
import type { ChannelAccountConfig } from "../../index.js";
import { normalizeE164 } from "../peer-id.js";
import { resolveWhatsAppAuthDir } from "./auth-dir-path.js";

const DEFAULT_MEDIA_MAX_MB = 50;
/** Inbound images up to this size are downloaded into the message for the model. */
const INLINE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** When the ack reaction is sent. */
export interface AckReactionSettings {
  emoji: string;
  direct: boolean;
  group: "always" | "mentions" | "never";
}

/** What a running web account needs from its config. */
export interface WebAccountSettings {
  authDir: string;
  /** true / false as configured; undefined: on when `allowFrom` names the account's own number. */
  selfChatMode: boolean | undefined;
  /** The E.164 numbers of `allowFrom` (for the self-chat default). */
  allowFromNumbers: string[];
  sendReadReceipts: boolean;
  ackReaction: AckReactionSettings | undefined;
  /** Largest media sent or received. */
  mediaMaxBytes: number;
  /** Largest image inlined for the model. */
  inlineImageMaxBytes: number;
  /** `textChunkLimit`, when set. */
  textChunkLimit: number | undefined;
}

/** Inputs for {@link resolveWebSettings}. */
export interface ResolveWebSettingsParams {
  config: ChannelAccountConfig;
  stateDir: string;
  accountId: string;
  env: Record<string, string | undefined>;
}

function ackReactionOf(value: unknown): AckReactionSettings | undefined | string {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "ackReaction must be an object {emoji, direct, group}";
  const fields = value as Record<string, unknown>;
  const emoji = typeof fields.emoji === "string" ? fields.emoji.trim() : "";
  if (!emoji) return undefined;
  const group = fields.group ?? "mentions";
  if (group !== "always" && group !== "mentions" && group !== "never")
    return `ackReaction.group ${JSON.stringify(group)} is not one of always, mentions, never`;
  return { emoji, direct: fields.direct !== false, group };
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Resolves a web account's settings; an error names the bad key. */
export function resolveWebSettings(
  params: ResolveWebSettingsParams,
): { ok: true; settings: WebAccountSettings } | { ok: false; error: string } {
  const { config } = params;
  if (config.authDir !== undefined && typeof config.authDir !== "string")
    return { ok: false, error: "authDir must be a path string" };
  const authDir = resolveWhatsAppAuthDir(params);
  if (!authDir.ok) return authDir;
  const ack = ackReactionOf(config.ackReaction);
  if (typeof ack === "string") return { ok: false, error: ack };
  const allowFrom = Array.isArray(config.allowFrom) ? (config.allowFrom as unknown[]) : [];
  const allowFromNumbers = allowFrom.flatMap((entry) => {
    const number =
      typeof entry === "string" || typeof entry === "number" ? normalizeE164(entry) : undefined;
    return number ? [number] : [];
  });
  const mediaMaxMb = positive(config.mediaMaxMb) ?? DEFAULT_MEDIA_MAX_MB;
  const mediaMaxBytes = mediaMaxMb * 1024 * 1024;
  return {
    ok: true,
    settings: {
      authDir: authDir.authDir,
      selfChatMode: typeof config.selfChatMode === "boolean" ? config.selfChatMode : undefined,
      allowFromNumbers,
      sendReadReceipts: config.sendReadReceipts !== false,
      ackReaction: ack,
      mediaMaxBytes,
      inlineImageMaxBytes: Math.min(mediaMaxBytes, INLINE_IMAGE_MAX_BYTES),
      textChunkLimit: positive(config.textChunkLimit),
    },
  };
}

/** Whether self-chat messages are answered, once the account's own number is known. */
export function selfChatEnabled(settings: WebAccountSettings, ownNumber: string): boolean {
  return settings.selfChatMode ?? settings.allowFromNumbers.includes(ownNumber);
}
