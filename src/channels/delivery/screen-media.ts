// Applies the media policy to a reply's payloads before they are planned: allowed media become
// checked attachments (real paths, or remote URLs as written); a refused one is dropped, logged with
// its reason, and the payload's text gets a short note so the reader knows something was withheld.
import type { ReplyPayload } from "../../runtime/run/index.js";
import type { Logger, OutboundMedia } from "../types.js";
import { checkMediaRef, type MediaPolicy } from "./media-policy.js";

/** A payload whose media passed the policy: what {@link planReplyMessages} takes. */
export interface ScreenedPayload {
  text: string;
  media: OutboundMedia[];
  voice: boolean;
  replyTo?: string;
}

/** One refused reference and why (logged; never shown in the chat). */
export interface RefusedMedia {
  ref: string;
  reason: string;
}

/** Inputs of {@link screenReplyMedia}. */
export interface ScreenReplyMediaParams {
  payloads: readonly ReplyPayload[];
  /** Resolved only when a payload names a local file (remote URLs need no policy). */
  policy: () => MediaPolicy | Promise<MediaPolicy>;
  log: Logger;
  /** Log context: channel, account, session. */
  context?: Record<string, unknown>;
}

/** What the chat sees in place of refused attachments. */
export function refusedMediaNote(count: number): string {
  const what = count === 1 ? "1 attachment was" : `${count} attachments were`;
  return `(${what} not sent: only files from the agent's workspace can be attached.)`;
}

const REMOTE = /^https?:\/\//i;

/** Screens every payload's media; the result keeps payload order and text. */
export async function screenReplyMedia(
  params: ScreenReplyMediaParams,
): Promise<{ payloads: ScreenedPayload[]; refused: RefusedMedia[] }> {
  let policy: MediaPolicy | undefined;
  const refused: RefusedMedia[] = [];
  const payloads: ScreenedPayload[] = [];
  for (const payload of params.payloads) {
    const media: OutboundMedia[] = [];
    let withheld = 0;
    for (const ref of payload.media) {
      if (REMOTE.test(ref.trim())) {
        media.push({ url: ref.trim() });
        continue;
      }
      policy ??= await params.policy();
      const check = await checkMediaRef(policy, ref);
      if (check.ok) {
        media.push(check.media);
        continue;
      }
      withheld += 1;
      refused.push({ ref: check.ref, reason: check.reason });
      params.log.warn(
        { ...params.context, media: check.ref, reason: check.reason },
        "attachment refused by the media policy",
      );
    }
    const note = withheld > 0 ? refusedMediaNote(withheld) : "";
    const text = [payload.text, note].filter((part) => part !== "").join("\n\n");
    payloads.push({
      text,
      media,
      voice: payload.voice,
      ...(payload.replyTo ? { replyTo: payload.replyTo } : {}),
    });
  }
  return { payloads, refused };
}
