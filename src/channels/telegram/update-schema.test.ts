// Malformed updates never make the Telegram conversion throw: each shape of the table is refused with
// a reason naming the broken field, and thousands of seeded random breakages of a rich message come
// out as a clean inbound, ignored, or invalid with a reason, never an exception.
import { describe, expect, it } from "vitest";
import {
  fuzzedUpdates,
  malformedUpdates,
  RAW_MALFORMED_ITEMS,
  richMessage,
} from "../../../test/helpers/fake-telegram-malformed.js";
import { toChannelInbound } from "./inbound.js";
import { createTelegramUpdateParser } from "./update-schema.js";

const BOT = { id: "9", username: "pincer_main_bot" };
const parse = createTelegramUpdateParser();
const convert = (update: unknown) =>
  toChannelInbound({ update, accountId: "default", bot: BOT, parse });

describe("telegram update shape", () => {
  it("converts the rich base message (the table and the fuzzer break a valid message)", () => {
    const conversion = convert({ update_id: 1, message: richMessage() });
    expect(conversion.kind).toBe("inbound");
    if (conversion.kind !== "inbound") return;
    expect(conversion.inbound).toMatchObject({
      messageId: "700",
      peer: { kind: "direct", id: "111" },
      mentions: ["pincer_main_bot", "444"],
      mentionedSelf: true,
      replyTo: { id: "699", body: "earl", sender: "Bot" },
    });
    expect(conversion.inbound.media.map((m) => m.fileId)).toEqual(["large", "doc"]);
  });

  const table = malformedUpdates();
  it.each(table.map((entry) => [entry.name, entry] as const))(
    "refuses %s with a reason naming the field",
    (_name, entry) => {
      const conversion = convert({ update_id: 5, ...entry.update });
      expect(conversion.kind).toBe("invalid");
      if (conversion.kind !== "invalid") return;
      expect(conversion.reason).toContain(entry.blames);
      expect(conversion.reason).not.toMatch(/TypeError|undefined \(reading/);
    },
  );

  it("refuses getUpdates items that are not updates", () => {
    for (const item of RAW_MALFORMED_ITEMS) {
      const conversion = convert(item);
      expect(conversion, JSON.stringify(item)).toMatchObject({ kind: "invalid" });
    }
  });

  it("never throws on 3,000 seeded random breakages; every refusal names a field", () => {
    const kinds = { inbound: 0, ignored: 0, invalid: 0 };
    for (const [index, update] of fuzzedUpdates({ seed: 20240610, count: 3_000 }).entries()) {
      let conversion: ReturnType<typeof convert>;
      try {
        conversion = convert({ update_id: index, ...update });
      } catch (err) {
        throw new Error(`update ${JSON.stringify(update)} threw: ${String(err)}`);
      }
      kinds[conversion.kind] += 1;
      if (conversion.kind === "invalid") expect(conversion.reason).toMatch(/^update(\.|:)/);
      if (conversion.kind === "inbound") {
        // What is handed on is well-formed whatever the input was.
        const { inbound } = conversion;
        expect(typeof inbound.messageId).toBe("string");
        expect(Number.isFinite(inbound.timestamp)).toBe(true);
        expect(typeof inbound.text).toBe("string");
        expect(inbound.peer.id).toMatch(/^-?\d+(:topic:\d+)?$/);
        for (const media of inbound.media) expect(typeof media.fileId).toBe("string");
      }
    }
    // The fuzzer really breaks things (most are refused) and also leaves some valid variants.
    expect(kinds.invalid).toBeGreaterThan(2_000);
    expect(kinds.inbound + kinds.ignored).toBeGreaterThan(0);
  });
});
