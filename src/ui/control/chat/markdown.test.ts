import { describe, expect, it } from "vitest";
import { type MdBlock, type MdInline, parseInline, parseMarkdown, safeHref } from "./markdown.js";

/** Every link target anywhere in the tree. */
function hrefs(blocks: MdBlock[]): string[] {
  const found: string[] = [];
  const walkInline = (pieces: MdInline[]) => {
    for (const piece of pieces) {
      if (piece.type === "link") found.push(piece.href);
      if ("children" in piece) walkInline(piece.children);
    }
  };
  const walk = (list: MdBlock[]) => {
    for (const block of list) {
      if (block.type === "paragraph" || block.type === "heading") walkInline(block.children);
      if (block.type === "list") for (const item of block.items) walk(item);
      if (block.type === "quote") walk(block.blocks);
    }
  };
  walk(blocks);
  return found;
}

/** The text the tree shows, as the DOM's textContent would read. */
function shownText(pieces: MdInline[]): string {
  return pieces
    .map((piece) => {
      if (piece.type === "text" || piece.type === "code") return piece.text;
      if (piece.type === "break") return "\n";
      return shownText(piece.children);
    })
    .join("");
}

describe("parseMarkdown blocks", () => {
  it("reads fenced code with its language and keeps its content verbatim", () => {
    const blocks = parseMarkdown("Run:\n```ts\nconst a = `<b>` && 1;\n\n  indented\n```\nafter");
    expect(blocks).toEqual([
      { type: "paragraph", children: [{ type: "text", text: "Run:" }] },
      { type: "code", lang: "ts", text: "const a = `<b>` && 1;\n\n  indented" },
      { type: "paragraph", children: [{ type: "text", text: "after" }] },
    ]);
  });

  it("treats an unclosed fence (a reply still streaming) as code to the end", () => {
    expect(parseMarkdown("```\nline 1\nline 2")).toEqual([
      { type: "code", lang: "", text: "line 1\nline 2" },
    ]);
  });

  it("reads headings, rules and quotes", () => {
    const blocks = parseMarkdown("# Title\n## Sub *x* ##\n---\n> quoted\n> more");
    expect(blocks.map((block) => block.type)).toEqual(["heading", "heading", "rule", "quote"]);
    expect(blocks[1]).toMatchObject({
      level: 2,
      children: [{ type: "text", text: "Sub " }, { type: "em" }],
    });
    expect(parseMarkdown("#hashtag")[0]?.type).toBe("paragraph");
  });

  it("reads bullet and numbered lists, nested by indentation", () => {
    const blocks = parseMarkdown("- one\n- two\n  - two.a\n  - two.b\n- three\n\n3. c\n4. d");
    expect(blocks).toHaveLength(2);
    const [bullets, numbers] = blocks;
    expect(bullets).toMatchObject({ type: "list", ordered: false });
    if (bullets?.type !== "list") throw new Error("not a list");
    expect(bullets.items).toHaveLength(3);
    expect(bullets.items[1]?.[1]).toMatchObject({ type: "list", items: [[{}], [{}]] });
    expect(numbers).toMatchObject({ type: "list", ordered: true, start: 3 });
  });

  it("joins a paragraph's lines with line breaks", () => {
    expect(parseMarkdown("a\nb")).toEqual([
      {
        type: "paragraph",
        children: [{ type: "text", text: "a" }, { type: "break" }, { type: "text", text: "b" }],
      },
    ]);
  });
});

describe("parseInline", () => {
  it("reads code, strong, emphasis, strikethrough and links", () => {
    expect(parseInline("`x` **b** *i* _j_ ~~s~~ [t](https://example.com/a)")).toEqual([
      { type: "code", text: "x" },
      { type: "text", text: " " },
      { type: "strong", children: [{ type: "text", text: "b" }] },
      { type: "text", text: " " },
      { type: "em", children: [{ type: "text", text: "i" }] },
      { type: "text", text: " " },
      { type: "em", children: [{ type: "text", text: "j" }] },
      { type: "text", text: " " },
      { type: "del", children: [{ type: "text", text: "s" }] },
      { type: "text", text: " " },
      { type: "link", href: "https://example.com/a", children: [{ type: "text", text: "t" }] },
    ]);
  });

  it("leaves snake_case, lone stars and escapes as text", () => {
    expect(shownText(parseInline("snake_case_name and 2 * 3 * 4 and \\*not em\\*"))).toBe(
      "snake_case_name and 2 * 3 * 4 and *not em*",
    );
    expect(parseInline("snake_case_name").every((piece) => piece.type === "text")).toBe(true);
  });

  it("links bare http(s) URLs without trailing punctuation", () => {
    expect(parseInline("see https://example.com/x.")).toEqual([
      { type: "text", text: "see " },
      {
        type: "link",
        href: "https://example.com/x",
        children: [{ type: "text", text: "https://example.com/x" }],
      },
      { type: "text", text: "." },
    ]);
  });
});

describe("no HTML or script gets through", () => {
  it("keeps raw HTML as text", () => {
    const source = '<img src=x onerror="alert(1)"> <script>alert(2)</script>';
    expect(parseMarkdown(source)).toEqual([
      { type: "paragraph", children: [{ type: "text", text: source }] },
    ]);
  });

  it("keeps HTML inside code as the code's text", () => {
    expect(parseMarkdown("```html\n<img src=x onerror=alert(1)>\n```")).toEqual([
      { type: "code", lang: "html", text: "<img src=x onerror=alert(1)>" },
    ]);
    expect(parseInline("`<b onclick=x>`")).toEqual([{ type: "code", text: "<b onclick=x>" }]);
  });

  it("renders no link for javascript:, data:, vbscript: or relative targets, showing the source", () => {
    const attempts = [
      "[a](javascript:alert(1))",
      "[a](JaVaScRiPt:alert(1))",
      "[a](java\tscript:alert(1))",
      "[a]( javascript:alert(1))",
      "[a](data:text/html,<script>alert(1)</script>)",
      "[a](vbscript:msgbox)",
      "[a](/relative)",
      "[a](//evil.example)",
      "[**a**](javascript:alert(1))",
    ];
    for (const source of attempts) {
      const blocks = parseMarkdown(source);
      expect(hrefs(blocks), source).toEqual([]);
      const first = blocks[0];
      if (first?.type !== "paragraph") throw new Error(`not a paragraph: ${source}`);
      expect(shownText(first.children), source).toContain("](");
    }
  });

  it("allows only absolute http, https and mailto targets", () => {
    expect(safeHref("https://example.com")).toBe("https://example.com/");
    expect(safeHref("http://example.com/a?b=1")).toBe("http://example.com/a?b=1");
    expect(safeHref("mailto:me@example.com")).toBe("mailto:me@example.com");
    for (const raw of [
      "javascript:alert(1)",
      "\u0001javascript:x",
      "file:///etc/passwd",
      "ftp://x",
      "",
      "x",
    ]) {
      expect(safeHref(raw), raw).toBeUndefined();
    }
  });

  it("stays bounded on deeply nested input", () => {
    const deep = `${"> ".repeat(200)}x ${"[".repeat(500)}${"*".repeat(500)}`;
    expect(() => parseMarkdown(deep)).not.toThrow();
  });
});
