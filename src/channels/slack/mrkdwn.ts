// The model's Markdown → Slack mrkdwn: **bold** / __bold__ → *bold*, *italic* / _italic_ →
// _italic_, ~~strike~~ → ~strike~, headings → *bold* lines, [label](url) → <url|label>, "- item" /
// "* item" → "• item"; `inline code`, ``` fences ``` and "> quotes" are native and kept (a fence
// loses its language tag). `&`, `<` and `>` are escaped everywhere Slack would read them as markup
// (code included), except the quote marker. Unbalanced markers stay as typed.
import { TextStash } from "../../lib/text-stash.js";

/** Slack's three escapes. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function stashCode(text: string, stash: TextStash): string {
  const fenced = text.replace(
    /^```[^\n]*\n([\s\S]*?)(?:^```[ \t]*$|(?![\s\S]))/gm,
    (_m, body: string) => stash.put(`\`\`\`${escapeMrkdwn(body.replace(/\n$/, ""))}\`\`\``),
  );
  return fenced.replace(/`([^`\n]+)`/g, (_m, code: string) =>
    stash.put(`\`${escapeMrkdwn(code)}\``),
  );
}

function convertLine(line: string, stash: TextStash): string {
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
  if (heading?.[1]) return `**${heading[1].replace(/\*\*|__/g, "")}**`;
  const quote = /^(\s*)>\s?(.*)$/.exec(line);
  if (quote) return `${quote[1]}${stash.put("> ")}${quote[2]}`;
  return line.replace(/^(\s*)[-*+]\s+/, "$1• ");
}

function convertInline(text: string, stash: TextStash): string {
  return text
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_m, _alt: string, url: string) =>
      stash.put(`<${url}>`),
    )
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) =>
      stash.put(`<${url}|${escapeMrkdwn(label)}>`),
    )
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, (_m, _d: string, body: string) =>
      stash.put(`*${escapeMrkdwn(body)}*`),
    )
    .replace(
      /(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g,
      (_m, pre: string, body: string) => `${pre}${stash.put(`_${escapeMrkdwn(body)}_`)}`,
    )
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, (_m, body: string) => stash.put(`~${escapeMrkdwn(body)}~`));
}

/** Slack mrkdwn for a Markdown text. */
export function markdownToMrkdwn(markdown: string): string {
  const stash = new TextStash();
  const withoutCode = stashCode(markdown, stash);
  const lines = withoutCode.split("\n").map((line) => convertLine(line, stash));
  return stash.restore(escapeMrkdwn(convertInline(lines.join("\n"), stash)));
}
