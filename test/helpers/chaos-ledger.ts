// The books of a chaos test (test/gateway-chaos.test.ts): every WS turn a client sent (its key,
// whether the gateway ever acknowledged it, every retry and what it answered) and every Telegram
// message pushed at the fake Bot API, each carrying a unique token that the echo model quotes back,
// so a reply is tied to the message it answers. `tallyTurns` / `tallyMessages` turn the books and
// the state dir into the figures the test asserts and prints.
import type { FakeStep, RecordedRequest } from "./fake-openai.js";
import type { PromptCopies, RunAudit } from "./turn-audit.js";

/** Tokens the test puts in prompts: `w` agent turns, `c` chat.send turns, `t` Telegram messages. */
export const TOKEN_PATTERN = /\b[wct]\d+n\d+\b/g;

/** Every token in `text`, in order. */
export function tokensIn(text: string): string[] {
  return text.match(TOKEN_PATTERN) ?? [];
}

/** The text of the last user message of a chat-completions request (the turn's prompt). */
export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === "user").at(-1);
  return JSON.stringify(last?.content ?? "");
}

/** The echo model: `ack <tokens of the prompt>`, streamed in 3 pieces with a random 0–`maxDelayMs`
 *  pause between them (so a kill lands before, during or after a reply). */
export function echoReply(maxDelayMs: number): (request: RecordedRequest) => FakeStep {
  return (request) => ({
    kind: "text",
    text: `ack ${tokensIn(lastUserText(request)).join(" ")}`,
    chunks: 3,
    delayMs: Math.floor(Math.random() * maxDelayMs),
  });
}

/** One WS turn as its client saw it. */
export interface SentTurn {
  method: "agent" | "chat.send";
  key: string;
  token: string;
  params: Record<string, unknown>;
  /** The gateway acknowledged it once (`accepted` / `started`, or a retry's in_flight / final). */
  acked: boolean;
  /** Retries with the same key, and how many of those started it again after an ack. */
  retries: number;
  reran: number;
  /** agent.wait's status at the end. */
  outcome?: string;
}

/** What a first or retried request answered: whether it means "a new run started". */
export function recordAnswer(turn: SentTurn, status: string | undefined, retry: boolean): void {
  if (retry) turn.retries++;
  if (status === undefined) return;
  const started = status === "accepted" || status === "started";
  if (started && turn.acked) turn.reran++;
  if (started || status === "in_flight" || status === "ok" || status === "error") turn.acked = true;
}

/** The WS figures. */
export interface TurnTally {
  sent: number;
  acked: number;
  answered: number;
  failedVisibly: number;
  doubled: string[];
  lost: string[];
  retries: number;
  reran: number;
}

/** Checks every WS turn against the state dir's audit: one prompt, one reply quoting its token (or
 *  an error outcome shown once in its session); a second prompt, reply or error reply, or a retry
 *  that started it again, is doubled. */
export function tallyTurns(turns: SentTurn[], runs: Map<string, RunAudit>): TurnTally {
  const tally: TurnTally = {
    sent: turns.length,
    acked: turns.filter((t) => t.acked).length,
    answered: 0,
    failedVisibly: 0,
    doubled: [],
    lost: [],
    retries: turns.reduce((n, t) => n + t.retries, 0),
    reran: turns.reduce((n, t) => n + t.reran, 0),
  };
  for (const turn of turns) {
    const run = runs.get(turn.key);
    const twice = (run?.prompts ?? 0) > 1 || (run?.replies ?? 0) > 1 || (run?.errors ?? 0) > 1;
    if (twice || turn.reran > 0) {
      tally.doubled.push(turn.key);
    } else if (turn.outcome === "ok" && run?.replies === 1 && run.text?.includes(turn.token)) {
      tally.answered++;
    } else if (turn.outcome === "error" && (run?.errors ?? 0) > 0) {
      tally.failedVisibly++;
    } else {
      tally.lost.push(`${turn.key} (${turn.outcome}, ${JSON.stringify(run)})`);
    }
  }
  return tally;
}

/** One Telegram message pushed at the fake. */
export interface PushedMessage {
  token: string;
  messageId: number;
  chatId: number;
}

/** The Telegram figures. */
export interface MessageTally {
  pushed: number;
  answered: number;
  reported: number;
  doubled: string[];
  lost: string[];
  /** Prompts the model answered twice, or that ran again right after themselves. */
  duplicatedPrompts: string[];
  /** Cut prompts a later turn ran on top of, then run again (the one case left, see README). */
  rerunPrompts: string[];
}

/** Checks every pushed message: more than one sent reply quoting its token is doubled; a reported
 *  reply (dead letter or uncertain part quoting it) is reported; else one sent reply is answered
 *  once, none is lost. */
export function tallyMessages(params: {
  messages: PushedMessage[];
  sentTexts: string[];
  reportedTexts: string[];
  prompts: Map<string, PromptCopies>;
}): MessageTally {
  const count = (texts: string[]) => {
    const counts = new Map<string, number>();
    for (const text of texts) {
      for (const token of new Set(tokensIn(text))) counts.set(token, (counts.get(token) ?? 0) + 1);
    }
    return counts;
  };
  const sent = count(params.sentTexts);
  const reported = count(params.reportedTexts);
  const tally: MessageTally = {
    pushed: params.messages.length,
    answered: 0,
    reported: 0,
    doubled: [],
    lost: [],
    duplicatedPrompts: [],
    rerunPrompts: [],
  };
  for (const { token } of params.messages) {
    const replies = sent.get(token) ?? 0;
    const copies = params.prompts.get(token);
    if (copies && (copies.answered > 1 || copies.repeated > 0)) tally.duplicatedPrompts.push(token);
    else if (copies && copies.copies > 1) tally.rerunPrompts.push(token);
    // An uncertain part may have arrived (the fake saw the request): reported, not guessed.
    if (replies > 1) tally.doubled.push(token);
    else if (reported.has(token)) tally.reported++;
    else if (replies === 1) tally.answered++;
    else tally.lost.push(token);
  }
  return tally;
}
