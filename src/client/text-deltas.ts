// Rebuilding a run's streamed text from the `chat` events a `text-deltas` connection gets: a delta
// (and the run's final or aborted event) appends its `deltaText`, or replaces the text with it when
// `replace` is set (the connection missed some deltas: a slow client, or a run that started before
// it connected). No Node-only imports: the Control UI uses it too.

/** The text after one chat event, and what it appended to the previous text. */
export interface ChatTextUpdate {
  text: string;
  /** The new text's tail when it extends the previous one; undefined when it replaced it otherwise. */
  appended: string | undefined;
}

/** Applies one chat event payload of a `text-deltas` connection to the run's text so far. */
export function nextChatText(text: string, chat: unknown): ChatTextUpdate {
  const { deltaText, replace } = (chat ?? {}) as { deltaText?: unknown; replace?: unknown };
  if (typeof deltaText !== "string") return { text, appended: "" };
  if (replace !== true) return { text: text + deltaText, appended: deltaText };
  return {
    text: deltaText,
    appended: deltaText.startsWith(text) ? deltaText.slice(text.length) : undefined,
  };
}
