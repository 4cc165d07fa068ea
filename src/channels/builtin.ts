// The channels that ship with Pincer, as lazy loaders: a platform SDK (grammY, Baileys, …) is imported only
// when its channel is configured. Third-party adapters use the same registry API.
import type { ChannelAdapterLoader } from "./registry.js";

/** Loaders of the built-in adapters by channel id (the gateway's default registry). */
export function builtinChannelLoaders(): Record<string, ChannelAdapterLoader> {
  return {
    telegram: async () => (await import("./telegram/index.js")).createTelegramAdapter(),
    discord: async () => (await import("./discord/index.js")).createDiscordAdapter(),
    whatsapp: async () => (await import("./whatsapp/index.js")).createWhatsAppAdapter(),
    slack: async () => (await import("./slack/index.js")).createSlackAdapter(),
    signal: async () => (await import("./signal/index.js")).createSignalAdapter(),
    bluebubbles: async () => (await import("./bluebubbles/index.js")).createBlueBubblesAdapter(),
    imessage: async () => (await import("./imessage/index.js")).createIMessageAdapter(),
  };
}
