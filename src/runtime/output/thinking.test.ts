import { describe, expect, it } from "vitest";
import { createThinkingFilter, extractFinal, stripThinking } from "./thinking.js";

function streamAll(deltas: string[], options?: Parameters<typeof createThinkingFilter>[0]): string {
  const filter = createThinkingFilter(options);
  return deltas.map((delta) => filter.push(delta)).join("") + filter.flush();
}

/** Every way of cutting `text` into two deltas. */
function everySplit(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);
}

describe("stripThinking", () => {
  it("removes think and thinking blocks, case-insensitive, and trims", () => {
    expect(stripThinking("<think>plan</think>\n\nHello")).toBe("Hello");
    expect(stripThinking("A <THINKING>x\ny</THINKING>B")).toBe("A B");
    expect(stripThinking("<thinking >hmm</thinking>Hi <think>a</think>there")).toBe("Hi there");
  });

  it("removes an unclosed trailing block", () => {
    expect(stripThinking("Answer.\n<think>still going")).toBe("Answer.");
    expect(stripThinking("<think>only thoughts")).toBe("");
  });

  it("leaves other tags and lone angle brackets alone", () => {
    expect(stripThinking("a < b and <div>x</div> <thinker>")).toBe(
      "a < b and <div>x</div> <thinker>",
    );
    expect(stripThinking("<final>kept</final>")).toBe("<final>kept</final>");
  });
});

describe("extractFinal", () => {
  it("keeps only the final block when there is one", () => {
    expect(extractFinal("draft stuff <final>The answer</final> trailing")).toBe("The answer");
    expect(extractFinal("<final>a</final> and <final>b</final>")).toBe("a\n\nb");
    expect(extractFinal("<final>\nunclosed answer")).toBe("unclosed answer");
  });

  it("returns the text unchanged without a final block", () => {
    expect(extractFinal("plain reply")).toBe("plain reply");
  });
});

describe("createThinkingFilter (streaming)", () => {
  const sample = "Hi <think>secret plan</think>there, <thinking>more</thinking>friend!";

  it("gives the same result for every split of the deltas", () => {
    for (const deltas of everySplit(sample)) {
      expect(streamAll(deltas)).toBe("Hi there, friend!");
    }
  });

  it("handles tags split one character per delta", () => {
    expect(streamAll([...sample])).toBe("Hi there, friend!");
    expect(streamAll([..."<think>x</think>\n\nAnswer"])).toBe("Answer");
  });

  it("holds back only a possible tag start and releases it when it is not one", () => {
    const filter = createThinkingFilter();
    expect(filter.push("a <thi")).toBe("a ");
    expect(filter.push("s is fine")).toBe("<this is fine");
    expect(filter.push(" x<")).toBe(" x");
    expect(filter.flush()).toBe("<");
  });

  it("drops an unclosed think block at the end of the stream", () => {
    expect(streamAll(["Done. <think>never", " closed"])).toBe("Done. ");
  });

  it("strips final markers by default and emits only final content when asked", () => {
    const text = "thinking aloud <final>The answer</final> afterthought";
    expect(streamAll(everySplit(text)[20])).toBe("thinking aloud The answer afterthought");
    for (const deltas of everySplit(text)) {
      expect(streamAll(deltas, { final: "only" })).toBe("The answer");
    }
  });
});
