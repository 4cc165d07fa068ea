// One WhatsApp channel, two transports per account: `web` (WhatsApp Web through Baileys, the
// default, what OpenClaw ships) and `cloud` (Meta's official Business Cloud API). An account picks
// one with `transport`; everything above the transport (peers, access, routing) is the same.
import type {
  ChannelAccountConfig,
  ChannelAccountContext,
  ChannelAccountRuntime,
} from "../index.js";

/** The transports an account may name. */
export const WHATSAPP_TRANSPORTS = ["web", "cloud"] as const;

/** One of {@link WHATSAPP_TRANSPORTS}. */
export type WhatsAppTransportId = (typeof WHATSAPP_TRANSPORTS)[number];

/** What one transport implements; the adapter picks it per account. */
export interface WhatsAppTransport {
  /** A clear error naming what is missing or wrong in the account's settings, or undefined. */
  validate(
    config: ChannelAccountConfig,
    env: Record<string, string | undefined>,
  ): string | undefined;
  start(context: ChannelAccountContext): Promise<ChannelAccountRuntime>;
}

/** The account's transport, or an error naming the bad value (never a silent default for a typo). */
export function transportOf(
  config: ChannelAccountConfig,
): { ok: true; transport: WhatsAppTransportId } | { ok: false; error: string } {
  const value = config.transport;
  if (value === undefined) return { ok: true, transport: "web" };
  if (typeof value === "string" && (WHATSAPP_TRANSPORTS as readonly string[]).includes(value)) {
    return { ok: true, transport: value as WhatsAppTransportId };
  }
  return {
    ok: false,
    error: `transport ${JSON.stringify(value)} is not one of ${WHATSAPP_TRANSPORTS.join(", ")}`,
  };
}
