// The assistant's Markdown (parsed by markdown.ts into plain data) as Lit templates: elements from
// a fixed set of tags, text only through bindings (Lit escapes it; no innerHTML), links with
// http(s)/mailto targets opening in a new tab without opener or referrer, and code blocks with a
// Copy button (the Clipboard API; it says "Copied" or why not).
import { html, nothing, type TemplateResult } from "lit";
import { type MdBlock, type MdInline, parseMarkdown } from "./markdown.js";

function inline(pieces: MdInline[]): TemplateResult[] {
  return pieces.map((piece): TemplateResult => {
    switch (piece.type) {
      case "text":
        return html`${piece.text}`;
      case "break":
        return html`<br />`;
      case "code":
        return html`<code>${piece.text}</code>`;
      case "link":
        return html`<a href=${piece.href} target="_blank" rel="noopener noreferrer"
          >${inline(piece.children)}</a
        >`;
      case "strong":
        return html`<strong>${inline(piece.children)}</strong>`;
      case "em":
        return html`<em>${inline(piece.children)}</em>`;
      default:
        return html`<del>${inline(piece.children)}</del>`;
    }
  });
}

async function copyCode(event: Event, text: string): Promise<void> {
  const button = event.currentTarget as HTMLButtonElement;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch (err) {
    // No clipboard (an insecure origin, or permission refused): say so on the button.
    console.warn("control ui: copy failed", err);
    button.textContent = "Copy failed";
  }
}

function heading(level: number, body: TemplateResult[]): TemplateResult {
  switch (Math.min(6, Math.max(1, level))) {
    case 1:
      return html`<h1>${body}</h1>`;
    case 2:
      return html`<h2>${body}</h2>`;
    case 3:
      return html`<h3>${body}</h3>`;
    case 4:
      return html`<h4>${body}</h4>`;
    case 5:
      return html`<h5>${body}</h5>`;
    default:
      return html`<h6>${body}</h6>`;
  }
}

function block(item: MdBlock): TemplateResult {
  switch (item.type) {
    case "paragraph":
      return html`<p>${inline(item.children)}</p>`;
    case "heading":
      return heading(item.level, inline(item.children));
    case "code":
      return html`<div class="code-block">
        <button type="button" class="copy" aria-label="Copy code" @click=${(event: Event) => copyCode(event, item.text)}>
          Copy
        </button>
        <pre><code data-lang=${item.lang === "" ? nothing : item.lang}>${item.text}</code></pre>
      </div>`;
    case "list": {
      const entries = item.items.map((entry) => html`<li>${entry.map(block)}</li>`);
      if (!item.ordered) return html`<ul>${entries}</ul>`;
      return html`<ol start=${item.start === 1 ? nothing : item.start}>${entries}</ol>`;
    }
    case "quote":
      return html`<blockquote>${item.blocks.map(block)}</blockquote>`;
    case "rule":
      return html`<hr />`;
  }
}

/** The message's Markdown as templates of safe elements. */
export function markdownView(source: string): TemplateResult[] {
  return parseMarkdown(source).map(block);
}
