import { describe, expect, it } from "vitest";
import { parseSkillFrontmatter } from "./frontmatter.js";

function parse(text: string) {
  const result = parseSkillFrontmatter(text);
  if (!result.ok) throw new Error(`unexpected error: ${result.error}`);
  return result;
}

function failure(text: string): string {
  const result = parseSkillFrontmatter(text);
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

describe("parseSkillFrontmatter", () => {
  it("reads key: value lines and the body", () => {
    const result = parse("---\nname: gh\ndescription: Use GitHub\n---\n# Title\nbody\n");
    expect(result.fields).toEqual({ name: "gh", description: "Use GitHub" });
    expect(result.metadata).toBeUndefined();
    expect(result.body).toBe("# Title\nbody\n");
  });

  it("handles CRLF line endings, a BOM and a ... terminator", () => {
    const result = parse("\uFEFF---\r\nname: a\r\ndescription: b c\r\n...\r\nbody\r\n");
    expect(result.fields).toEqual({ name: "a", description: "b c" });
    expect(result.body).toBe("body\n");
  });

  it("decodes double and single quotes, keeping colons and hashes inside them", () => {
    const result = parse(
      [
        "---",
        'name: "quoted"',
        'description: "Fix issue #42: \\"now\\" \\u00e9"',
        "homepage: 'it''s: here # not a comment'",
        "---",
      ].join("\n"),
    );
    expect(result.fields).toEqual({
      name: "quoted",
      description: 'Fix issue #42: "now" é',
      homepage: "it's: here # not a comment",
    });
  });

  it("strips comments from plain values only after whitespace", () => {
    const result = parse("---\nname: c#-helper # the name\ndescription: x\n---\n");
    expect(result.fields.name).toBe("c#-helper");
  });

  it("folds indented continuation lines and | / > blocks", () => {
    const result = parse(
      [
        "---",
        "name: multi",
        "description: first line",
        "  second line",
        "notes: |",
        "  line one",
        "    indented",
        "summary: >-",
        "  folded",
        "  text",
        "",
        "  new paragraph",
        "---",
      ].join("\n"),
    );
    expect(result.fields.description).toBe("first line second line");
    expect(result.fields.notes).toBe("line one\n  indented");
    expect(result.fields.summary).toBe("folded text\nnew paragraph");
  });

  it("parses single-line JSON metadata", () => {
    const result = parse(
      '---\nname: a\ndescription: b\nmetadata: {"openclaw": {"requires": {"bins": ["gh"]}}}\n---\n',
    );
    expect(result.metadata).toEqual({ openclaw: { requires: { bins: ["gh"] } } });
  });

  it("parses multi-line metadata, indented or closed at column 0, with JSON5 comments", () => {
    const indented = parse(
      [
        "---",
        "name: a",
        "metadata:",
        "  {",
        '    "openclaw": {',
        '      "os": ["darwin"], // macOS only, don\'t {',
        '      "requires": { "env": ["TOKEN"] },',
        "    }",
        "  }",
        "description: after metadata",
        "---",
      ].join("\n"),
    );
    expect(indented.metadata).toEqual({
      openclaw: { os: ["darwin"], requires: { env: ["TOKEN"] } },
    });
    expect(indented.fields.description).toBe("after metadata");
    const flush = parse(
      [
        "---",
        "name: a",
        "description: b",
        "metadata: {",
        '  "openclaw": { "always": true }',
        "}",
        "---",
      ].join("\r\n"),
    );
    expect(flush.metadata).toEqual({ openclaw: { always: true } });
  });

  it("does not count braces inside JSON strings", () => {
    const result = parse(
      [
        "---",
        "name: a",
        "description: b",
        'metadata: {"openclaw": {"emoji": "}{"},',
        '  "x": 1}',
        "---",
      ].join("\n"),
    );
    expect(result.metadata).toEqual({ openclaw: { emoji: "}{" }, x: 1 });
  });

  it("treats an empty metadata: as absent", () => {
    const result = parse("---\nname: a\nmetadata:\ndescription: b\n---\n");
    expect(result.metadata).toBeUndefined();
    expect(result.fields.description).toBe("b");
  });

  it("keeps odd keys as plain fields", () => {
    const result = parse("---\nname: a\ndescription: b\n__proto__: x\nuser-invocable: true\n---\n");
    expect(Object.hasOwn(result.fields, "__proto__")).toBe(true);
    expect(result.fields["user-invocable"]).toBe("true");
  });

  it("reports malformed frontmatter in plain words", () => {
    expect(failure("# no frontmatter\n")).toMatch(/must start with a --- line/);
    expect(failure("---\nname: a\n")).toMatch(/not closed/);
    expect(failure("---\nname: a\njust text\n---\n")).toMatch(/line 3: expected "key: value"/);
    expect(failure("---\nname: a\nname: b\n---\n")).toMatch(/line 3: duplicate key "name"/);
    expect(failure('---\nname: "open\n---\n')).toMatch(/name: unterminated " quote/);
    expect(failure('---\nname: "a" b\n---\n')).toMatch(/unexpected text after/);
    expect(failure('---\nmetadata: {"openclaw": {\n---\n')).toMatch(/unbalanced braces/);
    expect(failure("---\nmetadata: {openclaw: }\n---\n")).toMatch(/metadata is not valid JSON/);
    expect(failure('---\nmetadata: ["x"]\n---\n')).toMatch(/metadata must be a JSON object/);
    expect(failure("---\nmetadata:\n  openclaw:\n    always: true\n---\n")).toMatch(
      /YAML maps are not supported/,
    );
  });
});
