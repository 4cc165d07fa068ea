// What a conversation sees while a channel turn runs: the typing indicator and, where the account
// streams (`streaming` on an editable platform), the reply preview. Started before the run, fed its
// events, stopped when it ends: `stop` says which preview message the reply's first part edits.
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { RunEvent } from "../runtime/run/index.js";
import { createReplyPreview, previewStreamingEnabled } from "./delivery/reply-preview.js";
import { replyTextLimit } from "./delivery/text-limit.js";
import { resolveTypingSettings, startTyping } from "./delivery/typing.js";
import type {
  ChannelAccountConfig,
  ChannelAccountRuntime,
  ChannelCapabilities,
  Logger,
  OutboundTarget,
} from "./types.js";

/** Inputs of {@link startTurnFeedback}. */
export interface TurnFeedbackParams {
  cfg: OpenClawConfig;
  agentId: string;
  runtime: ChannelAccountRuntime | undefined;
  /** The conversation, never quoting. */
  target: OutboundTarget;
  config: ChannelAccountConfig;
  capabilities: ChannelCapabilities | undefined;
  log: Logger;
}

/** A running turn's feedback. */
export interface TurnFeedback {
  onEvent(event: RunEvent): void;
  /** Stops typing and the preview; the preview's message id when one was posted. */
  stop(): Promise<string | undefined>;
}

/** Starts typing (unless `typingMode: never`) and the preview (when the account streams). */
export function startTurnFeedback(params: TurnFeedbackParams): TurnFeedback {
  const { runtime, target, log } = params;
  if (!runtime) return { onEvent: () => {}, stop: async () => undefined };
  const typing = resolveTypingSettings(params.cfg, params.agentId);
  const stopTyping = typing.enabled
    ? startTyping({
        runtime,
        target,
        intervalMs: typing.intervalMs,
        onError: (err) => log.warn({ error: String(err) }, "typing indicator failed"),
      })
    : () => {};
  const preview = previewStreamingEnabled(params.config, params.capabilities)
    ? createReplyPreview({
        runtime,
        target,
        maxTextLength: replyTextLimit(params.capabilities, params.config),
        log,
      })
    : undefined;
  return {
    onEvent: (event) => preview?.onEvent(event),
    async stop() {
      stopTyping();
      return preview?.finish();
    },
  };
}
