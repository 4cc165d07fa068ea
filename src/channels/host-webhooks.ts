// The webhooks of one account slot: registered on the gateway's HTTP port through the host's
// webhook server and all released when the slot stops, so an account that stops (or restarts)
// never leaves a path answering for it. Without a server (a host run without the gateway's HTTP
// port) every registration is refused with a clear error.
import type {
  ChannelWebhookRegistration,
  ChannelWebhookRoute,
  ChannelWebhookServer,
} from "./types.js";

export type { ChannelWebhookServer };

/** One slot's webhooks. */
export interface AccountWebhooks {
  register(route: ChannelWebhookRoute): ChannelWebhookRegistration;
  /** Unregisters every route this slot registered. */
  releaseAll(): void;
}

/** Creates the registrations of account `owner` (`whatsapp/biz`). */
export function createAccountWebhooks(
  server: ChannelWebhookServer | undefined,
  owner: string,
): AccountWebhooks {
  const held = new Set<() => void>();
  return {
    register(route) {
      if (!server)
        return { ok: false, error: "this channel host serves no webhooks (no gateway HTTP port)" };
      const result = server.register(route, owner);
      if (!result.ok) return result;
      const release = () => {
        held.delete(release);
        result.unregister();
      };
      held.add(release);
      return { ok: true, path: result.path, unregister: release };
    },
    releaseAll() {
      for (const release of [...held]) release();
    },
  };
}
