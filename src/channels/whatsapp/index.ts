// The WhatsApp channel adapter: each account runs on its transport (`web` = Baileys, `cloud` = the
// Business Cloud API). A transport's SDK is imported only when an account of it starts, so the
// gateway never loads Baileys for a Cloud-only setup.
import {
  type ChannelAccountConfig,
  type ChannelAccountContext,
  type ChannelAdapter,
  defaultAccountIds,
} from "../index.js";
import { validateCloudAccount } from "./cloud/validate.js";
import { transportOf, type WhatsAppTransportId } from "./transport.js";
import { createWhatsAppLogin } from "./web/linker.js";
import type { WhatsAppWebOptions } from "./web/start.js";
import { validateWebAccount } from "./web/validate.js";

/** Longest text one WhatsApp message carries here (the Cloud API's text body limit). */
export const WHATSAPP_TEXT_LIMIT = 4096;

const validators: Record<WhatsAppTransportId, ChannelAdapter["validateAccount"]> = {
  web: validateWebAccount,
  cloud: validateCloudAccount,
};

/** Tunables of {@link createWhatsAppAdapter}, per transport; the defaults suit production. */
export interface WhatsAppAdapterOptions {
  /** The web transport's socket factory (default: Baileys) and timings. */
  web?: WhatsAppWebOptions;
}

async function startTransport(transport: WhatsAppTransportId, options: WhatsAppAdapterOptions) {
  switch (transport) {
    case "web": {
      const { startWebAccount } = await import("./web/start.js");
      return (context: ChannelAccountContext) => startWebAccount(context, options.web);
    }
    case "cloud":
      return (await import("./cloud/start.js")).startCloudAccount;
  }
}

/** The WhatsApp adapter, serving both transports. */
export function createWhatsAppAdapter(options: WhatsAppAdapterOptions = {}): ChannelAdapter {
  return {
    id: "whatsapp",
    label: "WhatsApp",
    capabilities: {
      maxTextLength: WHATSAPP_TEXT_LIMIT,
      markdown: "plain",
      typing: true,
      threads: false,
      media: true,
      nativeMentions: true,
    },
    listAccounts: (channelConfig) => defaultAccountIds(channelConfig),
    validateAccount(config: ChannelAccountConfig, env) {
      const transport = transportOf(config);
      if (!transport.ok) return transport.error;
      return validators[transport.transport](config, env);
    },
    async start(context) {
      const transport = transportOf(context.config);
      if (!transport.ok) throw new Error(transport.error);
      const start = await startTransport(transport.transport, options);
      return start(context);
    },
    // Linking by QR is WhatsApp Web's (a Cloud account has a token instead).
    login: createWhatsAppLogin(
      options.web?.socketFactory ? { createSocket: options.web.socketFactory } : {},
    ),
  };
}
