// Markdown → Telegram HTML: one row per construct, plus escaping and the cases that must stay literal.
import { describe, expect, it } from "vitest";
import { escapeTelegramHtml, markdownToTelegramHtml } from "./markdown-html.js";

const table: Array<[string, string, string]> = [
  ["plain text", "hello world", "hello world"],
  ["escapes &, <, >", "a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"],
  ["html from the model is text", "<b>not bold</b>", "&lt;b&gt;not bold&lt;/b&gt;"],
  ["bold **", "**bold**", "<b>bold</b>"],
  ["bold __", "__bold__", "<b>bold</b>"],
  ["italic *", "an *italic* word", "an <i>italic</i> word"],
  ["italic _", "an _italic_ word", "an <i>italic</i> word"],
  ["bold inside italic", "*very **bold** move*", "<i>very <b>bold</b> move</i>"],
  ["strike", "~~gone~~", "<s>gone</s>"],
  ["inline code escapes and is not styled", "`a<*b*>`", "<code>a&lt;*b*&gt;</code>"],
  [
    "fenced code with language",
    "```ts\nconst a = 1 < 2;\n```",
    '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
  ],
  ["fenced code without language", "```\n**raw**\n```", "<pre><code>**raw**</code></pre>"],
  [
    "unterminated fence runs to the end",
    "```py\nx = 1",
    '<pre><code class="language-py">x = 1</code></pre>',
  ],
  ["link", "[docs](https://x.dev/a?b=1&c=2)", '<a href="https://x.dev/a?b=1&amp;c=2">docs</a>'],
  [
    "link with underscores keeps its url",
    "[a](https://x.dev/a_b_c)",
    '<a href="https://x.dev/a_b_c">a</a>',
  ],
  [
    "link url quotes are escaped",
    '[q](https://x.dev/"x")',
    '<a href="https://x.dev/&quot;x&quot;">q</a>',
  ],
  ["heading becomes bold", "## Title", "<b>Title</b>"],
  ["blockquote", "> quoted\n> more\nafter", "<blockquote>quoted\nmore</blockquote>\nafter"],
  ["snake_case stays", "use snake_case_names here", "use snake_case_names here"],
  ["bullet star stays", "* item one\n* item two", "* item one\n* item two"],
  ["lone asterisk stays", "2 * 3 = 6", "2 * 3 = 6"],
  ["unbalanced bold stays literal", "**open", "**open"],
];

describe("markdownToTelegramHtml", () => {
  it.each(table)("%s", (_name, markdown, html) => {
    expect(markdownToTelegramHtml(markdown)).toBe(html);
  });

  it("drops NUL characters instead of confusing its placeholders", () => {
    expect(markdownToTelegramHtml("a\u00000\u0000b")).toBe("a0b");
  });

  it("escapeTelegramHtml escapes only &, < and >", () => {
    expect(escapeTelegramHtml(`<&>"'`)).toBe(`&lt;&amp;&gt;"'`);
  });
});
