// A run's reply as its session shows it on a channel: the reasoning (when `/reasoning` shows it) as
// its own message first, the usage footer (when `/usage` asks for one) at the end of the last part.
// Applied to the payloads handed to the delivery queue only: the transcript keeps the model's text.
import { reasoningText } from "../../runtime/output/index.js";
import type { ReplyDisplay } from "../../runtime/run/index.js";
import type { ScreenedPayload } from "./screen-media.js";

/** `payloads` with the display extras added; a silent reply (no payloads) stays silent. */
export function withReplyExtras(
  payloads: readonly ScreenedPayload[],
  display: ReplyDisplay | undefined,
): ScreenedPayload[] {
  const out = [...payloads];
  const last = out.at(-1);
  if (!display || !last) return out;
  const footer = display.usageFooter;
  if (footer) {
    out[out.length - 1] = { ...last, text: last.text ? `${last.text}\n\n${footer}` : footer };
  }
  const reasoning = display.reasoning ? reasoningText(display.reasoning) : undefined;
  if (reasoning) out.unshift({ text: reasoning, media: [], voice: false });
  return out;
}
