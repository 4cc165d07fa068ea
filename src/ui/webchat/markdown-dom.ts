// Builds DOM nodes from the parsed Markdown (markdown.ts): elements from a fixed set of tags,
// text only through text nodes (never innerHTML), links with http(s)/mailto targets opening in a
// new tab without an opener or referrer.
import { type MdBlock, type MdInline, parseMarkdown } from "./markdown.js";

const INLINE_TAGS = { strong: "strong", em: "em", del: "del" } as const;

function inlineNodes(doc: Document, pieces: MdInline[]): Node[] {
  return pieces.map((piece): Node => {
    switch (piece.type) {
      case "text":
        return doc.createTextNode(piece.text);
      case "break":
        return doc.createElement("br");
      case "code": {
        const code = doc.createElement("code");
        code.textContent = piece.text;
        return code;
      }
      case "link": {
        const link = doc.createElement("a");
        link.href = piece.href;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        link.append(...inlineNodes(doc, piece.children));
        return link;
      }
      default: {
        const element = doc.createElement(INLINE_TAGS[piece.type]);
        element.append(...inlineNodes(doc, piece.children));
        return element;
      }
    }
  });
}

function blockNode(doc: Document, block: MdBlock): HTMLElement {
  switch (block.type) {
    case "paragraph": {
      const paragraph = doc.createElement("p");
      paragraph.append(...inlineNodes(doc, block.children));
      return paragraph;
    }
    case "heading": {
      const level = Math.min(6, Math.max(1, block.level));
      const heading = doc.createElement(`h${level}`);
      heading.append(...inlineNodes(doc, block.children));
      return heading;
    }
    case "code": {
      const pre = doc.createElement("pre");
      const code = doc.createElement("code");
      if (block.lang !== "") code.dataset.lang = block.lang;
      code.textContent = block.text;
      pre.append(code);
      return pre;
    }
    case "list": {
      const list = doc.createElement(block.ordered ? "ol" : "ul");
      if (block.ordered && block.start !== 1) list.setAttribute("start", String(block.start));
      for (const item of block.items) {
        const entry = doc.createElement("li");
        entry.append(...item.map((inner) => blockNode(doc, inner)));
        list.append(entry);
      }
      return list;
    }
    case "quote": {
      const quote = doc.createElement("blockquote");
      quote.append(...block.blocks.map((inner) => blockNode(doc, inner)));
      return quote;
    }
    case "rule":
      return doc.createElement("hr");
  }
}

/** The message's Markdown as a fragment of safe elements. */
export function renderMarkdown(doc: Document, source: string): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  fragment.append(...parseMarkdown(source).map((block) => blockNode(doc, block)));
  return fragment;
}
