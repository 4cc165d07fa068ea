// The gateway's internal hooks (`hooks.internal.enabled`): one runner and one `agent:bootstrap`
// registry per gateway, filled by `start()` (discovery and handler imports are loaded lazily, after
// the gateway listens), which then fires `gateway:startup`. The call sites get small entry points:
// `command` (awaited: what handlers push to `event.messages` is added to the command's reply),
// `received` / `sent` (fire and forget). Everything is a no-op while internal hooks are off.
import {
  type BootstrapHookRegistry,
  createBootstrapHookRegistry,
} from "../agents/bootstrap-hooks.js";
import type { ResolvedConfig } from "../config/index.js";
import type { Logger } from "../lib/logger.js";
import type { SessionStoreRegistry } from "../sessions/index.js";
import type { BundledHookServices } from "./bundled/types.js";
import { defaultWorkspace } from "./default-workspace.js";
import {
  createHookEvent,
  createHookRunner,
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookRunner,
} from "./runner.js";
import type { HookEventType } from "./types.js";

/** A command as the chat command service hands it over (a subset of its request). */
export interface HookCommandRequest {
  name: string;
  args: string;
  agentId: string;
  sessionKey: string;
  channel: string;
  senderId: string;
}

/** An inbound message a hook hears about (`message:received`). */
export interface HookInboundMessage {
  channel: string;
  accountId: string;
  messageId: string;
  senderId: string;
  conversationId: string;
  text: string;
  timestamp: number;
  sessionKey?: string;
}

/** A sent part (`message:sent`). */
export interface HookSentMessage {
  channel: string;
  accountId: string;
  to: string;
  text: string;
}

/** Inputs of {@link createGatewayHooks}. */
export interface GatewayHooksParams {
  logger: Logger;
  stateDir: string;
  env: Record<string, string | undefined>;
  config: () => ResolvedConfig;
  now: () => number;
  stores: () => SessionStoreRegistry;
  startTurn: BundledHookServices["startTurn"];
  /** Per-handler limit (default 10 s). */
  timeoutMs?: number;
}

/** The internal hooks of one gateway. */
export interface GatewayHooks {
  /** Passed to the runtime: `agent:bootstrap` handlers edit the injected files through it. */
  readonly bootstrap: BootstrapHookRegistry;
  readonly runner: HookRunner;
  /** Loads the hooks when `hooks.internal.enabled` (once; bounded); never throws. The gateway
   *  awaits it before starting the channels, so no message is handled before its hooks are in. */
  load(): Promise<void>;
  /** Fires `gateway:startup` (after `load`, once the channels have started); never throws. */
  startup(): Promise<void>;
  /** Fires `command:<name>` for /new, /reset and /stop; resolves with the messages to add. */
  command(request: HookCommandRequest): Promise<string[]>;
  /** Fires `message:received` (not awaited by the pipeline). */
  received(message: HookInboundMessage): void;
  /** Fires `message:sent` (not awaited by delivery). */
  sent(message: HookSentMessage): void;
  /** Waits for `start()` and for fire-and-forget events in flight. */
  close(): Promise<void>;
}

/** The command names that are hook events (OpenClaw's command hooks). */
const COMMAND_EVENTS = new Set(["new", "reset", "stop"]);

/** Creates the gateway's hooks (nothing loaded until `start`). */
export function createGatewayHooks(params: GatewayHooksParams): GatewayHooks {
  const runner = createHookRunner({
    logger: params.logger,
    ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
  });
  const bootstrap = createBootstrapHookRegistry();
  const inFlight = new Set<Promise<unknown>>();
  let loading: Promise<void> | undefined;
  let startup: Promise<void> | undefined;
  const track = (work: Promise<unknown>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  const fire = (
    type: HookEventType,
    action: string,
    fields: { sessionKey: string; context: Record<string, unknown> },
  ) => {
    if (!runner.has(type, action)) return;
    const event = createHookEvent({ type, action, ...fields, now: params.now });
    track(runner.trigger(event));
  };
  const services: BundledHookServices = {
    stateDir: params.stateDir,
    logger: params.logger,
    config: params.config,
    now: params.now,
    startTurn: params.startTurn,
  };
  return {
    bootstrap,
    runner,
    load() {
      loading ??= (async () => {
        if (params.config().config.hooks?.internal?.enabled !== true) return;
        try {
          const { loadInternalHooks } = await import("./load.js");
          const timeoutMs = params.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
          await loadInternalHooks({ ...params, runner, bootstrap, services, timeoutMs });
        } catch (err) {
          params.logger.error({ error: String(err) }, "internal hooks failed to load");
        }
      })();
      return loading;
    },
    startup() {
      startup ??= (async () => {
        await this.load();
        await runner.trigger(
          createHookEvent({
            type: "gateway",
            action: "startup",
            sessionKey: "gateway:startup",
            context: {
              cfg: params.config().config,
              workspaceDir: defaultWorkspace(params.config()),
            },
            now: params.now,
          }),
        );
      })();
      return startup;
    },
    async command(request) {
      if (!COMMAND_EVENTS.has(request.name) || !runner.has("command", request.name)) return [];
      const cfg = params.config();
      const agent = cfg.agents.find((candidate) => candidate.id === request.agentId);
      const entry = params.stores().forAgent(request.agentId).get(request.sessionKey);
      const event = createHookEvent({
        type: "command",
        action: request.name,
        sessionKey: request.sessionKey,
        now: params.now,
        context: {
          ...(entry ? { sessionEntry: { ...entry }, sessionId: entry.sessionId } : {}),
          ...(entry?.sessionFile ? { sessionFile: entry.sessionFile } : {}),
          commandSource: request.channel,
          senderId: request.senderId,
          agentId: request.agentId,
          args: request.args,
          ...(agent ? { workspaceDir: agent.workspace } : {}),
          cfg: cfg.config,
        },
      });
      await runner.trigger(event);
      return event.messages.filter((text) => typeof text === "string" && text.trim() !== "");
    },
    received(message) {
      fire("message", "received", {
        sessionKey: message.sessionKey ?? "",
        context: {
          from: message.senderId,
          content: message.text,
          channelId: message.channel,
          accountId: message.accountId,
          conversationId: message.conversationId,
          messageId: message.messageId,
          timestamp: message.timestamp,
        },
      });
    },
    sent(message) {
      fire("message", "sent", {
        sessionKey: "",
        context: {
          to: message.to,
          content: message.text,
          success: true,
          channelId: message.channel,
          accountId: message.accountId,
          conversationId: message.to,
        },
      });
    },
    async close() {
      await loading;
      await startup;
      await Promise.allSettled([...inFlight]);
    },
  };
}
