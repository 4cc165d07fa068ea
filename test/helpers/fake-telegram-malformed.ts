// Malformed Telegram updates for robustness tests: a named table of shapes the Bot API should never
// send but a broken proxy, a future API change or an attacker-controlled apiRoot could (each names
// the field the adapter must blame), raw getUpdates items without a usable `update_id`, and a seeded
// fuzzer that breaks a rich valid message at random paths (deleted, or replaced by a value of
// another JSON type). Everything is plain JSON, deterministic for a given seed. Test double only.
import { ALICE, type FakeUser } from "./fake-telegram-updates.js";

/** One malformed update (without `update_id`: the fake assigns it) and the field it breaks. */
export interface MalformedUpdate {
  name: string;
  update: Record<string, unknown>;
  /** A fragment the skip reason must contain (the field path). */
  blames: string;
}

/** A rich private message with every field the adapter reads: the base the table and fuzzer break. */
export function richMessage(from: FakeUser = ALICE, messageId = 700): Record<string, unknown> {
  const text = "@pincer_main_bot hi Carol /start@pincer_main_bot";
  // A deep copy: table edits and the fuzzer mutate it in place.
  return structuredClone({
    message_id: messageId,
    date: 1_700_000_000,
    chat: { id: from.id, type: "private", first_name: from.first_name, username: from.username },
    from,
    text,
    entities: [
      { type: "mention", offset: 0, length: 16 },
      { type: "text_mention", offset: 20, length: 5, user: { id: 444, first_name: "Carol" } },
      { type: "bot_command", offset: 26, length: 23 },
    ],
    reply_to_message: {
      message_id: messageId - 1,
      date: 1_699_999_999,
      chat: { id: from.id, type: "private" },
      from: { id: 9, is_bot: true, first_name: "Bot", username: "pincer_main_bot" },
      text: "earlier",
    },
    quote: { text: "earl", position: 0 },
    photo: [
      { file_id: "small", file_unique_id: "s", width: 90, height: 90, file_size: 100 },
      { file_id: "large", file_unique_id: "l", width: 800, height: 600, file_size: 5000 },
    ],
    document: { file_id: "doc", file_unique_id: "d", file_name: "a.pdf", mime_type: "x/y" },
  });
}

type Edit = (message: Record<string, unknown>) => void;

const cases: Array<[name: string, blames: string, edit: Edit]> = [
  ["no chat", "update.message.chat", (m) => delete m.chat],
  ["chat is null", "update.message.chat", (m) => (m.chat = null)],
  ["chat is a string", "update.message.chat", (m) => (m.chat = "111")],
  ["chat.id is a string", "update.message.chat.id", (m) => ((m.chat as Rec).id = "111")],
  ["chat.id is missing", "update.message.chat.id", (m) => delete (m.chat as Rec).id],
  ["chat.id is not a safe integer", "update.message.chat.id", (m) => ((m.chat as Rec).id = 1e21)],
  ["chat.id is fractional", "update.message.chat.id", (m) => ((m.chat as Rec).id = 1.5)],
  ["chat.type is unknown", "update.message.chat.type", (m) => ((m.chat as Rec).type = "bogus")],
  ["chat.type is missing", "update.message.chat.type", (m) => delete (m.chat as Rec).type],
  ["chat.is_forum is a string", "chat.is_forum", (m) => ((m.chat as Rec).is_forum = "yes")],
  ["message_id is missing", "update.message.message_id", (m) => delete m.message_id],
  ["message_id is a string", "update.message.message_id", (m) => (m.message_id = "700")],
  ["date is a string", "update.message.date", (m) => (m.date = "yesterday")],
  ["date is missing", "update.message.date", (m) => delete m.date],
  ["from is a string", "update.message.from", (m) => (m.from = "alice")],
  ["from.id is missing", "update.message.from.id", (m) => delete (m.from as Rec).id],
  ["from.first_name is a number", "from.first_name", (m) => ((m.from as Rec).first_name = 7)],
  ["text is a number", "update.message.text", (m) => (m.text = 42)],
  ["text is an object", "update.message.text", (m) => (m.text = { t: "hi" })],
  ["caption is an array", "update.message.caption", (m) => (m.caption = ["hi"])],
  ["entities is an object", "update.message.entities", (m) => (m.entities = { 0: {} })],
  ["entities holds null", "update.message.entities[0]", (m) => (m.entities = [null])],
  ["entity offset is negative", "entities[0].offset", (m) => (ents(m)[0]!.offset = -3)],
  ["entity length is a string", "entities[0].length", (m) => (ents(m)[0]!.length = "5")],
  ["entity type is missing", "entities[2].type", (m) => delete ents(m)[2]!.type],
  ["text_mention without user", "entities[1]", (m) => delete ents(m)[1]!.user],
  ["text_mention user is a string", "entities[1].user", (m) => (ents(m)[1]!.user = "carol")],
  ["text_mention user.id is null", "entities[1].user.id", (m) => (userOf(m).id = null)],
  ["caption_entities is a string", "caption_entities", (m) => (m.caption_entities = "x")],
  ["photo is an object", "update.message.photo", (m) => (m.photo = { file_id: "x" })],
  ["photo is a string", "update.message.photo", (m) => (m.photo = "large")],
  ["photo holds null", "update.message.photo[0]", (m) => (m.photo = [null])],
  ["photo file_id is a number", "photo[1].file_id", (m) => (photos(m)[1]!.file_id = 5)],
  ["photo size without file_id", "photo[0].file_id", (m) => delete photos(m)[0]!.file_id],
  ["photo width is a string", "photo[0].width", (m) => (photos(m)[0]!.width = "90")],
  ["document is a string", "update.message.document", (m) => (m.document = "doc")],
  ["document without file_id", "document.file_id", (m) => delete (m.document as Rec).file_id],
  ["voice file_id is empty", "update.message.voice.file_id", (m) => (m.voice = { file_id: "" })],
  ["sticker is an array", "update.message.sticker", (m) => (m.sticker = [])],
  [
    "video file_size is a string",
    "video.file_size",
    (m) => (m.video = { file_id: "v", file_size: "1" }),
  ],
  ["reply_to_message is a string", "reply_to_message", (m) => (m.reply_to_message = "earlier")],
  ["reply_to_message.from is a number", "reply_to_message.from", (m) => (quoted(m).from = 9)],
  [
    "reply_to_message without message_id",
    "reply_to_message.message_id",
    (m) => delete quoted(m).message_id,
  ],
  ["quote is a string", "update.message.quote", (m) => (m.quote = "earl")],
  ["quote.text is a number", "update.message.quote.text", (m) => (m.quote = { text: 1 })],
  ["sender_chat is a number", "update.message.sender_chat", (m) => (m.sender_chat = -100)],
  ["message_thread_id is a string", "message_thread_id", (m) => (m.message_thread_id = "42")],
  ["is_topic_message is a string", "is_topic_message", (m) => (m.is_topic_message = "true")],
];

type Rec = Record<string, unknown>;
const ents = (m: Rec) => m.entities as Rec[];
const photos = (m: Rec) => m.photo as Rec[];
const quoted = (m: Rec) => m.reply_to_message as Rec;
const userOf = (m: Rec) => ents(m)[1]!.user as Rec;

/** The table: each a rich message from `from` broken in one named way, plus whole-message breaks. */
export function malformedUpdates(from: FakeUser = ALICE): MalformedUpdate[] {
  const table: MalformedUpdate[] = cases.map(([name, blames, edit]) => {
    const message = richMessage(from);
    edit(message);
    return { name, update: { message }, blames };
  });
  const post = richMessage(from);
  delete post.chat;
  table.push(
    { name: "message is a string", update: { message: "hi" }, blames: "update.message" },
    { name: "message is null", update: { message: null }, blames: "update.message" },
    {
      name: "message is an array",
      update: { message: [richMessage(from)] },
      blames: "update.message",
    },
    {
      name: "channel_post without chat",
      update: { channel_post: post },
      blames: "channel_post.chat",
    },
  );
  return table;
}

/** getUpdates items without a usable `update_id` (for `pushRaw`): the poller must step over them. */
export const RAW_MALFORMED_ITEMS: unknown[] = [
  null,
  "garbage",
  42,
  [],
  {},
  { update_id: "7", message: richMessage() },
  { update_id: -1, message: richMessage() },
  { update_id: 1.5, message: richMessage() },
];

/** A deterministic PRNG in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** A random JSON value of a type other than `avoid`. */
function junk(random: () => number, avoid: string, depth = 0): unknown {
  const makers: Array<() => unknown> = [
    () => null,
    () => random() < 0.5,
    () => Math.floor(random() * 2_000_000) - 1_000_000,
    () => random() * 10,
    () => "",
    () => String.fromCharCode(...[0, 1, 2].map(() => 32 + Math.floor(random() * 90))),
    () => (depth > 1 ? [] : [junk(random, "", depth + 1)]),
    () => (depth > 1 ? {} : { k: junk(random, "", depth + 1) }),
  ];
  for (;;) {
    const value = makers[Math.floor(random() * makers.length)]!();
    if (jsonType(value) !== avoid) return value;
  }
}

/** Every path inside `value` (object keys and array indexes), parents before children. */
function pathsOf(
  value: unknown,
  prefix: Array<string | number> = [],
): Array<Array<string | number>> {
  if (typeof value !== "object" || value === null) return [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value as Rec);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

function mutate(root: Rec, path: Array<string | number>, random: () => number): void {
  let parent: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== "object" || parent === null) return; // an earlier mutation replaced it
    parent = (parent as Rec)[key as string];
  }
  const last = path.at(-1)!;
  if (typeof parent !== "object" || parent === null) return;
  const holder = parent as Rec;
  const before = holder[last as string];
  if (random() < 0.3 && !Array.isArray(parent)) delete holder[last as string];
  else holder[last as string] = junk(random, jsonType(before));
}

/** `count` updates (`{message}` or `{channel_post}`), each a rich message broken at 1–3 random paths. */
export function fuzzedUpdates(params: { seed: number; count: number; from?: FakeUser }): Rec[] {
  const random = seededRandom(params.seed);
  const out: Rec[] = [];
  for (let i = 0; i < params.count; i++) {
    const field = random() < 0.85 ? "message" : "channel_post";
    const update: Rec = { [field]: richMessage(params.from, 800 + i) };
    const paths = pathsOf(update);
    const edits = 1 + Math.floor(random() * 3);
    for (let e = 0; e < edits; e++)
      mutate(update, paths[Math.floor(random() * paths.length)]!, random);
    out.push(update);
  }
  return out;
}
