// A reply preview edited in place (`OutboundMessage.editMessageId`): `editMessageText` with the text
// rendered to HTML (plain text when Telegram cannot parse it, or when the HTML would pass 4096
// characters), "message is not modified" counted as done. Failures come back as values.
import { type Api, GrammyError } from "grammy";
import type { Logger, OutboundMessage, SendResult } from "../index.js";
import { markdownToTelegramHtml } from "./markdown-html.js";
import { isParseEntitiesError, toSendFailure } from "./send-failure.js";
import { placeOutbound } from "./send-target.js";

const TEXT_LIMIT = 4096;

function notModified(err: unknown): boolean {
  return (
    err instanceof GrammyError &&
    err.error_code === 400 &&
    /message is not modified/i.test(err.description)
  );
}

/** Replaces the text of message `editMessageId` in the target chat; never throws. */
export async function editTelegramMessage(params: {
  api: Api;
  message: OutboundMessage & { editMessageId: string };
  log: Logger;
}): Promise<SendResult> {
  const { api, message, log } = params;
  const messageId = Number(message.editMessageId);
  const text = message.text ?? "";
  if (!Number.isSafeInteger(messageId) || text.trim() === "") {
    return {
      ok: false,
      failure: {
        message: `cannot edit message "${message.editMessageId}"`,
        retryable: false,
        code: "edit_invalid",
      },
    };
  }
  const { chatId } = placeOutbound(message.target);
  const html = markdownToTelegramHtml(text);
  const plain = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
  const edit = async (body: string, parseMode?: "HTML") => {
    await api.editMessageText(chatId, messageId, body, parseMode ? { parse_mode: parseMode } : {});
  };
  const done: SendResult = { ok: true, receipt: { messageId: message.editMessageId } };
  try {
    await (html.length <= TEXT_LIMIT ? edit(html, "HTML") : edit(plain));
    return done;
  } catch (err) {
    if (notModified(err)) return done;
    if (!isParseEntitiesError(err)) return { ok: false, failure: toSendFailure(err) };
    log.warn({ error: (err as Error).message }, "telegram: HTML rejected in an edit; plain text");
    try {
      await edit(plain);
      return done;
    } catch (plainErr) {
      return notModified(plainErr) ? done : { ok: false, failure: toSendFailure(plainErr) };
    }
  }
}
