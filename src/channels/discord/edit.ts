// A reply preview edited in place (`OutboundMessage.editMessageId`): `PATCH
// /channels/<id>/messages/<messageId>` with the new content, cut to Discord's 2000 characters (the
// delivery plan keeps a preview within the limit; the cut is a safety net). Failures come back as values.
import type { OutboundMessage, SendResult } from "../index.js";
import { type DiscordRest, type DmChannelCache, discordChannelFor } from "./send.js";
import { toDiscordSendFailure } from "./send-failure.js";

const TEXT_LIMIT = 2000;

/** Replaces the content of message `editMessageId` in the target's channel; never throws. */
export async function editDiscordMessage(params: {
  rest: DiscordRest;
  message: OutboundMessage & { editMessageId: string };
  dmChannels: DmChannelCache;
  apiRoot: string;
}): Promise<SendResult> {
  const { message } = params;
  const text = message.text ?? "";
  if (!/^\d{1,20}$/.test(message.editMessageId) || text.trim() === "") {
    return {
      ok: false,
      failure: {
        message: `cannot edit message "${message.editMessageId}"`,
        retryable: false,
        code: "edit_invalid",
      },
    };
  }
  const content = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
  try {
    const channelId = await discordChannelFor({
      rest: params.rest,
      target: message.target,
      dmChannels: params.dmChannels,
    });
    await params.rest.patch(`/channels/${channelId}/messages/${message.editMessageId}`, {
      body: { content },
    });
    return { ok: true, receipt: { messageId: message.editMessageId } };
  } catch (err) {
    return { ok: false, failure: toDiscordSendFailure(err, params.apiRoot) };
  }
}
