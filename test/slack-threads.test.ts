// Slack thread sessions end to end: the real gateway runs the real @slack/bolt against the fake
// Slack, the fake model answers. Each `thread.*` mode is seen where it lands: the session keys in
// `sessions.list`, what the fake model was sent, the transcripts on disk.
// - initialHistoryLimit (default 20): a new thread session gets the thread's earlier messages
//   (`conversations.replies`, before the starting message) as context; later turns do not.
// - historyScope thread (default): a thread reply's unmentioned context is its thread's only;
//   channel: the channel's unmentioned messages reach a thread reply too; the session stays the
//   thread's in both.
// - inheritParent: a new thread session starts as a copy of its channel's session (the parent's
//   transcript untouched).
// - an account's `thread` block replaces the channel's (as OpenClaw merges account keys).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { Loose } from "./helpers/gateway-sandbox.js";
import {
  BOT,
  type SlackGateway,
  slackMessage,
  socketAccount,
  startSlackGateway,
  waitForPost,
} from "./helpers/slack-gateway.js";

let setup: SlackGateway | undefined;
afterEach(async () => {
  await setup?.box.close();
  await setup?.slack.close();
  setup = undefined;
});

const ROOT = "1700000100.000100";
const PARENT_KEY = "agent:main:slack:channel:c1";
const THREAD_KEY = `${PARENT_KEY}:thread:${ROOT}`;

async function start(thread?: Record<string, unknown>): Promise<SlackGateway> {
  setup = await startSlackGateway({
    slackConfig: (apiUrl) =>
      socketAccount(apiUrl, { groupPolicy: "open", ...(thread ? { thread } : {}) }),
  });
  setup.slack.addConversation({ id: "C1", name: "general" });
  return setup;
}

/** Says `text` in C1 (in the thread when `inThread`) and waits for its ack. */
async function say(text: string, ts: string, inThread: boolean, user = "UALICE") {
  const { slack } = setup!;
  const event = slackMessage({
    channel: "C1",
    channelType: "channel",
    user,
    text,
    ts,
    ...(inThread ? { threadTs: ROOT } : {}),
  });
  await slack.waitForAck(slack.sendEnvelope(BOT.appToken!, { event }));
}

/** What the model was sent in its `nth` (0-based) request, as text. */
function modelSaw(nth: number): string {
  return JSON.stringify(setup!.box.fake.chatRequests[nth]!.body);
}

/** The newest user message of the model's `nth` (0-based) request: this turn's prompt. */
function promptOf(nth: number): string {
  const body = setup!.box.fake.chatRequests[nth]!.body as Loose;
  const users = (body.messages as Loose[]).filter((m) => m.role === "user");
  return JSON.stringify(users.at(-1)!.content);
}

async function sessionKeys(): Promise<string[]> {
  const client = await setup!.box.connect();
  const res = await client.request("sessions.list", {});
  client.close();
  return ((res.payload as Loose).sessions as Array<{ key: string }>).map((s) => s.key);
}

/** The transcript file of a session on disk: its header and its messages' texts. */
function transcriptOnDisk(key: string): { header: Loose; texts: string[] } {
  const store = setup!.box.gw.core.runtime.stores.forAgent("main");
  const lines = readFileSync(store.transcriptPath(key)!, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Loose);
  const texts = lines
    .filter((line) => line.type === "message")
    .map((line) => {
      const content = line.message.content;
      return typeof content === "string"
        ? content
        : (content as Loose[]).map((block) => block.text ?? "").join("");
    });
  return { header: lines[0]!, texts };
}

describe("Slack thread sessions", () => {
  it("gives a new thread session the thread's earlier messages (default initialHistoryLimit), once", async () => {
    const { box, slack } = await start();
    slack.addThreadMessages("C1", ROOT, [
      { type: "message", ts: ROOT, user: "UALICE", text: "deploy tonight?" },
      {
        type: "message",
        ts: "1700000101.000100",
        user: "UBOB",
        user_profile: { display_name: "Bob" },
        text: "staging first <@UCAROL>",
      },
      { type: "message", ts: "1700000102.000100", bot_id: BOT.botId, text: "noted" },
      { type: "message", ts: "1700000103.000100", user: "UALICE", text: "" },
      // After the starting message: not history.
      { type: "message", ts: "1700000200.000100", user: "UBOB", text: "later reply" },
    ]);
    // Unmentioned in the thread: kept as group context and also in Slack's thread: given once.
    await say("ping", "1700000103.500100", true, "UBOB");
    slack.addThreadMessages("C1", ROOT, [
      { type: "message", ts: "1700000103.500100", user: "UBOB", text: "ping" },
    ]);
    box.fake.text("on it");
    await say("<@UBOT1> so, shall we?", "1700000104.000100", true);
    const reply = await waitForPost(slack, "C1");
    expect(reply.params).toMatchObject({ text: "on it", thread_ts: ROOT });
    const [replies] = slack.callsOf("conversations.replies");
    expect(replies!.params).toMatchObject({
      channel: "C1",
      ts: ROOT,
      latest: "1700000104.000100",
    });
    const first = modelSaw(0);
    expect(first).toContain("[Chat messages since your last reply - for context]");
    expect(first).toContain("UALICE: deploy tonight?");
    expect(first).toContain("Bob: staging first @UCAROL");
    expect(first).toContain("assistant: noted");
    expect(first).toContain("so, shall we?");
    expect(first).not.toContain("later reply");
    expect(promptOf(0).split("ping")).toHaveLength(2);
    expect(await sessionKeys()).toContain(THREAD_KEY);

    // The session exists now: the next mention reads no history again.
    box.fake.text("done");
    await say("<@UBOT1> and prod?", "1700000105.000100", true);
    await waitForPost(slack, "C1", 2);
    expect(slack.callsOf("conversations.replies")).toHaveLength(1);
    expect(promptOf(1)).toContain("and prod?");
    expect(promptOf(1)).not.toContain("for context");
    expect(transcriptOnDisk(THREAD_KEY).texts.join("\n")).toContain("and prod?");
  });

  it("historyScope thread: a thread reply sees its thread's unmentioned messages, not the channel's", async () => {
    const { box, slack } = await start({ initialHistoryLimit: 0 });
    box.fake.text("one");
    await say("<@UBOT1> start", "1700000110.000100", true);
    await waitForPost(slack, "C1");
    await say("lunch anyone?", "1700000111.000100", false, "UBOB");
    await say("budget is 5k", "1700000112.000100", true, "UBOB");
    box.fake.text("two");
    await say("<@UBOT1> what is the budget?", "1700000113.000100", true);
    await waitForPost(slack, "C1", 2);
    const second = promptOf(1);
    expect(second).toContain("budget is 5k");
    expect(second).not.toContain("lunch anyone?");
    expect(slack.callsOf("conversations.replies")).toHaveLength(0);
    // The channel's own context is still there for the channel.
    box.fake.text("three");
    await say("<@UBOT1> hungry?", "1700000114.000100", false);
    await waitForPost(slack, "C1", 3);
    expect(modelSaw(2)).toContain("lunch anyone?");
    expect(modelSaw(2)).not.toContain("budget is 5k");
  });

  it("historyScope channel: the channel's unmentioned messages reach a thread reply; the session stays the thread's", async () => {
    const { box, slack } = await start({ historyScope: "channel", initialHistoryLimit: 0 });
    await say("lunch anyone?", "1700000120.000100", false, "UBOB");
    box.fake.text("sure");
    await say("<@UBOT1> in a thread now", "1700000121.000100", true);
    const reply = await waitForPost(slack, "C1");
    expect(reply.params.thread_ts).toBe(ROOT);
    expect(modelSaw(0)).toContain("lunch anyone?");
    const keys = await sessionKeys();
    expect(keys).toContain(THREAD_KEY);
    expect(keys).not.toContain(PARENT_KEY);
  });

  it("inheritParent: a new thread session starts as a copy of its channel's session", async () => {
    const { box, slack } = await start({ inheritParent: true, initialHistoryLimit: 0 });
    box.fake.text("parent answer");
    await say("<@UBOT1> top-level question", "1700000090.000100", false);
    await waitForPost(slack, "C1");
    const parentBefore = transcriptOnDisk(PARENT_KEY);
    expect(parentBefore.texts).toEqual([
      expect.stringContaining("top-level question"),
      "parent answer",
    ]);
    box.fake.text("thread answer");
    await say("<@UBOT1> follow-up in the thread", "1700000130.000100", true);
    await waitForPost(slack, "C1", 2);
    // The model saw the channel's conversation first, then the thread's message.
    const sent = modelSaw(1);
    expect(sent).toContain("top-level question");
    expect(sent).toContain("parent answer");
    expect(sent.indexOf("parent answer")).toBeLessThan(sent.indexOf("follow-up in the thread"));
    const thread = transcriptOnDisk(THREAD_KEY);
    const parentFile = box.gw.core.runtime.stores.forAgent("main").transcriptPath(PARENT_KEY);
    expect(thread.header).toMatchObject({ type: "session", parentSession: parentFile });
    expect(thread.texts).toEqual([
      ...parentBefore.texts,
      expect.stringContaining("follow-up in the thread"),
      "thread answer",
    ]);
    // The parent is untouched by the thread's turn.
    expect(transcriptOnDisk(PARENT_KEY)).toEqual(parentBefore);
    expect(await sessionKeys()).toEqual(expect.arrayContaining([PARENT_KEY, THREAD_KEY]));
  });

  it("an account's thread block replaces the channel's as a whole", async () => {
    setup = await startSlackGateway({
      slackConfig: (apiUrl) => ({
        thread: { historyScope: "channel", inheritParent: true },
        accounts: {
          default: socketAccount(apiUrl, {
            groupPolicy: "open",
            thread: { initialHistoryLimit: 0 },
          }),
        },
      }),
    });
    const { box, slack } = setup;
    slack.addConversation({ id: "C1", name: "general" });
    box.fake.text("parent answer");
    await say("<@UBOT1> top-level question", "1700000090.000100", false);
    await waitForPost(slack, "C1");
    await say("lunch anyone?", "1700000140.000100", false, "UBOB");
    box.fake.text("thread answer");
    await say("<@UBOT1> in the thread", "1700000141.000100", true);
    await waitForPost(slack, "C1", 2);
    // historyScope and inheritParent are back to their defaults (thread, false) for this account.
    expect(modelSaw(1)).not.toContain("lunch anyone?");
    expect(modelSaw(1)).not.toContain("parent answer");
    expect(slack.callsOf("conversations.replies")).toHaveLength(0);
  });

  it("inheritParent off (default): a new thread session starts empty", async () => {
    const { box, slack } = await start({ initialHistoryLimit: 0 });
    box.fake.text("parent answer");
    await say("<@UBOT1> top-level question", "1700000090.000100", false);
    await waitForPost(slack, "C1");
    box.fake.text("thread answer");
    await say("<@UBOT1> follow-up in the thread", "1700000131.000100", true);
    await waitForPost(slack, "C1", 2);
    expect(modelSaw(1)).not.toContain("parent answer");
    const thread = transcriptOnDisk(THREAD_KEY);
    expect(thread.header.parentSession).toBeUndefined();
    expect(thread.texts).toEqual([expect.stringContaining("follow-up"), "thread answer"]);
  });
});
