// Outbound messages as Bot API calls: text rendered to HTML and split to Telegram's 4096 characters
// (plain text again when Telegram cannot parse the HTML), then each attachment through sendPhoto or
// sendDocument (by URL or local path). Same topic, reply to `replyToId`. Failures come back as values.
import { stat } from "node:fs/promises";
import { basename, extname, isAbsolute } from "node:path";
import { type Api, InputFile } from "grammy";
import type {
  Logger,
  OutboundMedia,
  OutboundMessage,
  OutboundTarget,
  SendFailure,
  SendResult,
} from "../index.js";
import { editTelegramMessage } from "./edit.js";
import { markdownToTelegramHtml } from "./markdown-html.js";
import { isParseEntitiesError, toSendFailure } from "./send-failure.js";
import { placementFields, placeOutbound, type TelegramPlacement } from "./send-target.js";
import { splitMarkdownToFit } from "./text-split.js";

/** Telegram's longest message text, counted after entity parsing (we count the HTML: stricter). */
export const TELEGRAM_TEXT_LIMIT = 4096;
/** Telegram's longest media caption. */
export const TELEGRAM_CAPTION_LIMIT = 1024;

const IMAGE_EXTENSIONS = new Set([".jpg", ".jpeg", ".png", ".gif", ".webp"]);

/** Inputs for {@link sendTelegramMessage}. */
export interface SendTelegramParams {
  api: Api;
  message: OutboundMessage;
  log: Logger;
}

type Step = () => Promise<{ message_id: number }>;

interface StepOutcome {
  ok: boolean;
  messageId?: number;
  failure?: SendFailure;
}

async function runStep(step: Step, plainFallback: Step | undefined, log: Logger) {
  try {
    return { ok: true, messageId: (await step()).message_id } satisfies StepOutcome;
  } catch (err) {
    if (plainFallback && isParseEntitiesError(err)) {
      log.warn({ error: (err as Error).message }, "telegram: HTML rejected; sending plain text");
      return runStep(plainFallback, undefined, log);
    }
    return { ok: false, failure: toSendFailure(err) } satisfies StepOutcome;
  }
}

function textSteps(api: Api, text: string, placement: TelegramPlacement): Array<[Step, Step]> {
  const pieces = splitMarkdownToFit({
    markdown: text,
    limit: TELEGRAM_TEXT_LIMIT,
    render: markdownToTelegramHtml,
  });
  return pieces.flatMap((piece, index): Array<[Step, Step]> => {
    const fields = placementFields(placement, index === 0);
    const html: Step = () =>
      api.sendMessage(placement.chatId, markdownToTelegramHtml(piece), {
        ...fields,
        parse_mode: "HTML",
      });
    // Plain fallback of this piece: the raw Markdown, cut again if it alone is too long.
    const plainPieces = splitMarkdownToFit({
      markdown: piece,
      limit: TELEGRAM_TEXT_LIMIT,
      render: (s) => s,
    });
    const plain: Step = async () => {
      let last: { message_id: number } | undefined;
      for (const [i, plainPiece] of plainPieces.entries()) {
        last = await api.sendMessage(
          placement.chatId,
          plainPiece,
          i === 0 ? fields : { ...fields, reply_parameters: undefined },
        );
      }
      return last!;
    };
    return [[html, plain]];
  });
}

function isImage(media: OutboundMedia): boolean {
  if (media.kind) return media.kind === "image";
  const name = media.fileName ?? media.path ?? (media.url ? new URL(media.url).pathname : "");
  return IMAGE_EXTENSIONS.has(extname(name).toLowerCase());
}

async function mediaInput(media: OutboundMedia): Promise<InputFile | string | SendFailure> {
  if (media.url) return media.url;
  if (!media.path)
    return { message: "media has neither url nor path", retryable: false, code: "bad_media" };
  // Paths arrive resolved by the media policy; a relative one would read from the process cwd.
  if (!isAbsolute(media.path))
    return {
      message: `media ${media.path}: not an absolute path`,
      retryable: false,
      code: "bad_media",
    };
  try {
    const info = await stat(media.path);
    if (!info.isFile()) throw new Error("not a regular file");
  } catch (err) {
    return {
      message: `media ${media.path}: ${(err as Error).message}`,
      retryable: false,
      code: "bad_media",
    };
  }
  return new InputFile(media.path, media.fileName ?? basename(media.path));
}

function mediaSteps(params: {
  api: Api;
  media: OutboundMedia;
  input: InputFile | string;
  placement: TelegramPlacement;
  withReply: boolean;
}): [Step, Step] {
  const { api, media, input, placement } = params;
  const fields = placementFields(placement, params.withReply);
  const caption = media.caption?.slice(0, TELEGRAM_CAPTION_LIMIT);
  const html = caption ? markdownToTelegramHtml(caption) : undefined;
  const call = (extra: { caption?: string; parse_mode?: "HTML" }) =>
    isImage(media)
      ? api.sendPhoto(placement.chatId, input, { ...fields, ...extra })
      : api.sendDocument(placement.chatId, input, { ...fields, ...extra });
  const rich: Step = () =>
    call(
      html && html.length <= TELEGRAM_CAPTION_LIMIT
        ? { caption: html, parse_mode: "HTML" }
        : { caption },
    );
  return [rich, () => call({ caption })];
}

/** Sends one outbound message; never throws for platform errors. */
export async function sendTelegramMessage(params: SendTelegramParams): Promise<SendResult> {
  const { api, message, log } = params;
  if (message.editMessageId !== undefined) {
    return editTelegramMessage({
      api,
      message: { ...message, editMessageId: message.editMessageId },
      log,
    });
  }
  const placement = placeOutbound(message.target);
  const steps: Array<[Step, Step] | SendFailure> = [];
  if (message.text?.trim()) steps.push(...textSteps(api, message.text, placement));
  for (const media of message.media ?? []) {
    const input = await mediaInput(media);
    if (typeof input === "object" && !(input instanceof InputFile)) {
      steps.push(input);
      continue;
    }
    steps.push(mediaSteps({ api, media, input, placement, withReply: steps.length === 0 }));
  }
  if (steps.length === 0) {
    return { ok: false, failure: { message: "nothing to send", retryable: false, code: "empty" } };
  }
  let sent = 0;
  let lastId: number | undefined;
  for (const step of steps) {
    const outcome = Array.isArray(step)
      ? await runStep(step[0], step[1], log)
      : ({ ok: false, failure: step } satisfies StepOutcome);
    if (!outcome.ok) {
      const failure = outcome.failure!;
      if (sent === 0) return { ok: false, failure };
      // Part of the message is out: a retry would repeat it, so the failure is final.
      return {
        ok: false,
        failure: {
          ...failure,
          retryable: false,
          message: `${sent} of ${steps.length} parts sent; ${failure.message}`,
        },
      };
    }
    sent += 1;
    lastId = outcome.messageId;
  }
  return { ok: true, receipt: { messageId: String(lastId) } };
}

/** Shows "typing…" in the target chat/topic; a failure is logged, never thrown. */
export async function sendTelegramTyping(params: {
  api: Api;
  target: OutboundTarget;
  log: Logger;
}): Promise<void> {
  const placement = placeOutbound(params.target);
  const fields = placementFields(placement, false);
  try {
    await params.api.sendChatAction(placement.chatId, "typing", fields);
  } catch (err) {
    params.log.warn(
      { chatId: placement.chatId, error: (err as Error).message },
      "telegram: typing failed",
    );
  }
}
