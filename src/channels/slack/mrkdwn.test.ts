import { describe, expect, it } from "vitest";
import { escapeMrkdwn, markdownToMrkdwn } from "./mrkdwn.js";

describe("markdownToMrkdwn", () => {
  it.each([
    ["**bold** and __bold__", "*bold* and *bold*"],
    ["*italic* and _italic_", "_italic_ and _italic_"],
    ["~~gone~~", "~gone~"],
    ["[docs](https://x.dev/a?b=1)", "<https://x.dev/a?b=1|docs>"],
    ["[a & b](https://x.dev)", "<https://x.dev|a &amp; b>"],
    ["# Title", "*Title*"],
    ["### Sub *part*", "*Sub *part**"],
    ["- one\n* two\n+ three\n1. four", "• one\n• two\n• three\n1. four"],
    ["> quoted <b>", "> quoted &lt;b&gt;"],
    ["1 < 2 & 3 > 2", "1 &lt; 2 &amp; 3 &gt; 2"],
    ["`a<b` stays **code**", "`a&lt;b` stays *code*"],
    ["```js\nif (a < b && c) {}\n```", "```if (a &lt; b &amp;&amp; c) {}```"],
    ["a ** b", "a ** b"],
    ["![alt](https://x.dev/i.png)", "<https://x.dev/i.png>"],
  ])("%j", (input, expected) => {
    expect(markdownToMrkdwn(input)).toBe(expected);
  });

  it("never formats inside code", () => {
    expect(markdownToMrkdwn("```\n**x** [l](u)\n```")).toBe("```**x** [l](u)```");
  });

  it("escapes the three characters Slack reads as markup", () => {
    expect(escapeMrkdwn("<@U1> & <!here>")).toBe("&lt;@U1&gt; &amp; &lt;!here&gt;");
  });
});
