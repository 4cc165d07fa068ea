// A minimal server-sent events reader for signal-cli's `/api/v1/events`: yields each event (`id`,
// `event`, joined `data` lines) of a fetch response body; comments (keep-alives) are skipped.
// Ends when the body ends (the stream dropped) or throws what the body threw.

/** One server-sent event. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

function field(line: string): [string, string] {
  const colon = line.indexOf(":");
  if (colon < 0) return [line, ""];
  const value = line.slice(colon + 1);
  return [line.slice(0, colon), value.startsWith(" ") ? value.slice(1) : value];
}

/** Reads the events of a body stream. */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let current: { id?: string; event?: string; data: string[] } = { data: [] };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r?\n/);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(buffer[newline] === "\r" ? newline + 2 : newline + 1);
      if (line === "") {
        if (current.data.length > 0 || current.event !== undefined) {
          const event: SseEvent = { data: current.data.join("\n") };
          if (current.id !== undefined) event.id = current.id;
          if (current.event !== undefined) event.event = current.event;
          yield event;
        }
        current = { data: [] };
      } else if (!line.startsWith(":")) {
        const [name, value] = field(line);
        if (name === "data") current.data.push(value);
        else if (name === "event") current.event = value;
        else if (name === "id") current.id = value;
      }
      newline = buffer.search(/\r?\n/);
    }
  }
}
