// The model's Markdown → Telegram's HTML subset (parse_mode "HTML"): &, <, > escaped; **bold**,
// *italic*/_italic_, ~~strike~~, `code`, fenced blocks as <pre><code class="language-x">, [links](url),
// headings as bold, "> " quotes as <blockquote>. Unbalanced markers stay literal text.

const PLACEHOLDER = "\u0000";

/** Escapes the three characters Telegram's HTML parser cares about. */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeTelegramHtml(text).replace(/"/g, "&quot;");
}

/** Stores rendered fragments out of the way of the inline rules; `restore` puts them back. */
class FragmentStash {
  private readonly fragments: string[] = [];

  put(html: string): string {
    this.fragments.push(html);
    return `${PLACEHOLDER}${this.fragments.length - 1}${PLACEHOLDER}`;
  }

  restore(text: string): string {
    // Fragments may hold earlier fragments (code inside a link label), so restore until none are left.
    const pattern = new RegExp(`${PLACEHOLDER}(\\d+)${PLACEHOLDER}`, "g");
    let out = text;
    for (let depth = 0; depth < 4 && out.includes(PLACEHOLDER); depth++) {
      out = out.replace(pattern, (_m, index: string) => this.fragments[Number(index)] ?? "");
    }
    return out;
  }
}

function stashFences(text: string, stash: FragmentStash): string {
  // A fence runs to its closing ``` or, when the model forgot it, to the end of the text.
  const fence = /^```[ \t]*([\w#+.-]*)[^\n]*\n([\s\S]*?)(?:^```[ \t]*$|(?![\s\S]))/gm;
  return text.replace(fence, (_m, lang: string, body: string) => {
    const code = escapeTelegramHtml(body.replace(/\n$/, ""));
    const open = lang ? `<code class="language-${escapeAttribute(lang)}">` : "<code>";
    return stash.put(`<pre>${open}${code}</code></pre>`);
  });
}

function stashInlineCode(text: string, stash: FragmentStash): string {
  return text.replace(/`([^`\n]+)`/g, (_m, code: string) =>
    stash.put(`<code>${escapeTelegramHtml(code)}</code>`),
  );
}

function stashLinks(text: string, stash: FragmentStash): string {
  // Runs on escaped text, so the label is already safe; the URL is unescaped then quoted for the attribute.
  return text.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) => {
    const href = url.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    return stash.put(`<a href="${escapeAttribute(href)}">${label}</a>`);
  });
}

function applyInlineStyles(text: string): string {
  return text
    .replace(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm, "<b>$1</b>")
    .replace(/\*\*(?=\S)([^\n]*?\S)\*\*/g, "<b>$1</b>")
    .replace(/(^|[^\w])__(?=\S)([^\n]*?\S)__(?!\w)/g, "$1<b>$2</b>")
    .replace(/~~(?=\S)([^\n]*?\S)~~/g, "<s>$1</s>")
    .replace(
      /(^|[^\w*])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![\w*])/g,
      (_m, lead: string, body = "") => (body === "" ? _m : `${lead}<i>${body}</i>`),
    )
    .replace(/(^|[^\w])_(?=[^\s_])([^_\n]*?[^\s_])?_(?!\w)/g, (_m, lead: string, body = "") =>
      body === "" ? _m : `${lead}<i>${body}</i>`,
    );
}

function applyBlockquotes(text: string): string {
  // Runs after escaping, so a quote line starts with "&gt;".
  return text.replace(/(?:^&gt; ?.*(?:\n|$))+/gm, (block) => {
    const trailingNewline = block.endsWith("\n") ? "\n" : "";
    const lines = block
      .replace(/\n$/, "")
      .split("\n")
      .map((line) => line.replace(/^&gt; ?/, ""));
    return `<blockquote>${lines.join("\n")}</blockquote>${trailingNewline}`;
  });
}

/** Renders Markdown as Telegram HTML; the result is well-formed for balanced input. */
export function markdownToTelegramHtml(markdown: string): string {
  const stash = new FragmentStash();
  let text = markdown.replaceAll(PLACEHOLDER, "");
  text = stashFences(text, stash);
  text = stashInlineCode(text, stash);
  text = escapeTelegramHtml(text);
  text = stashLinks(text, stash);
  text = applyInlineStyles(text);
  text = applyBlockquotes(text);
  return stash.restore(text);
}
