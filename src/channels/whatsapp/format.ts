// The model's Markdown → WhatsApp's own markup, for both transports: **bold** → *bold*,
// *italic* / _italic_ → _italic_, ~~strike~~ → ~strike~, headings → *bold* lines, [label](url) →
// "label (url)", "* item" → "- item"; `inline code`, ``` fences ``` and "> quotes" are native and
// kept (a fence loses its language tag). Code is never reformatted. Unbalanced markers stay as typed.
import { TextStash } from "../../lib/text-stash.js";

function stashCode(text: string, stash: TextStash): string {
  const fenced = text.replace(
    /^```[^\n]*\n([\s\S]*?)(?:^```[ \t]*$|(?![\s\S]))/gm,
    (_m, body: string) => stash.put(`\`\`\`${body.replace(/\n$/, "")}\`\`\``),
  );
  return fenced.replace(/`([^`\n]+)`/g, (_m, code: string) => stash.put(`\`${code}\``));
}

function convertLine(line: string, stash: TextStash): string {
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
  if (heading?.[1]) return stash.put(`*${heading[1].replace(/\*\*|__/g, "")}*`);
  return line.replace(/^(\s*)[*+]\s+/, "$1- ");
}

function convertInline(text: string, stash: TextStash): string {
  return text
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_m, _alt: string, url: string) => stash.put(url))
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) =>
      stash.put(label === url ? url : `${label} (${url})`),
    )
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, (_m, _d: string, body: string) =>
      stash.put(`*${body}*`),
    )
    .replace(
      /(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g,
      (_m, pre: string, body: string) => `${pre}${stash.put(`_${body}_`)}`,
    )
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, (_m, body: string) => stash.put(`~${body}~`));
}

/** WhatsApp markup for a Markdown text. */
export function markdownToWhatsApp(markdown: string): string {
  const stash = new TextStash();
  const withoutCode = stashCode(markdown, stash);
  const lines = withoutCode.split("\n").map((line) => convertLine(line, stash));
  return stash.restore(convertInline(lines.join("\n"), stash));
}
