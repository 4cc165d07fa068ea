// The channel registry: which adapters exist, by channel id. Built-in and third-party adapters use
// the same API; an adapter may be registered as a lazy loader so its SDK loads only when needed.
import type { ChannelAdapter } from "./types.js";

/** Loads one adapter on demand (the channel SDK is imported inside). */
export type ChannelAdapterLoader = () => Promise<ChannelAdapter>;

/** Adapters and adapter loaders keyed by channel id. */
export interface ChannelRegistry {
  /** Registers a ready adapter (replaces an earlier one of the same id). */
  register(adapter: ChannelAdapter): void;
  /** Registers a lazy adapter; loaded at most once, on the first `load`. */
  registerLoader(channelId: string, loader: ChannelAdapterLoader): void;
  /** Whether an adapter or a loader exists for the channel. */
  has(channelId: string): boolean;
  /** Channel ids with an adapter or a loader, in registration order. */
  ids(): string[];
  /** The adapter if already loaded. */
  get(channelId: string): ChannelAdapter | undefined;
  /** The adapter, loading it if needed; undefined for an unknown channel. */
  load(channelId: string): Promise<ChannelAdapter | undefined>;
  /** Adapters loaded so far. */
  list(): ChannelAdapter[];
}

/** Creates a registry, optionally pre-filled with adapters and loaders. */
export function createChannelRegistry(
  init: { adapters?: ChannelAdapter[]; loaders?: Record<string, ChannelAdapterLoader> } = {},
): ChannelRegistry {
  const adapters = new Map<string, ChannelAdapter>();
  const loaders = new Map<string, ChannelAdapterLoader>();
  const loading = new Map<string, Promise<ChannelAdapter>>();
  const order: string[] = [];
  const remember = (id: string) => {
    if (!order.includes(id)) order.push(id);
  };
  const registry: ChannelRegistry = {
    register(adapter) {
      adapters.set(adapter.id, adapter);
      remember(adapter.id);
    },
    registerLoader(channelId, loader) {
      loaders.set(channelId, loader);
      remember(channelId);
    },
    has: (channelId) => adapters.has(channelId) || loaders.has(channelId),
    ids: () => [...order],
    get: (channelId) => adapters.get(channelId),
    async load(channelId) {
      const ready = adapters.get(channelId);
      if (ready) return ready;
      const loader = loaders.get(channelId);
      if (!loader) return undefined;
      let pending = loading.get(channelId);
      if (!pending) {
        pending = loader();
        loading.set(channelId, pending);
      }
      try {
        const adapter = await pending;
        if (adapter.id !== channelId) {
          throw new Error(`adapter loader for "${channelId}" returned adapter "${adapter.id}"`);
        }
        adapters.set(channelId, adapter);
        return adapter;
      } finally {
        loading.delete(channelId);
      }
    },
    list: () => order.flatMap((id) => adapters.get(id) ?? []),
  };
  for (const adapter of init.adapters ?? []) registry.register(adapter);
  for (const [id, loader] of Object.entries(init.loaders ?? {}))
    registry.registerLoader(id, loader);
  return registry;
}
