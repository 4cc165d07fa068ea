import { describe, expect, it } from "vitest";
import { parseHookMd } from "./hook-md.js";

const md = (front: string) => `---\n${front}\n---\n\n# Hook\n`;

describe("parseHookMd", () => {
  it("reads name, description, homepage and metadata.openclaw", () => {
    const parsed = parseHookMd(
      md(
        'name: my-hook\ndescription: "Does things"\nhomepage: https://example.test/h\nmetadata: { "openclaw": { "emoji": "🔗", "events": ["command:new", "command"], "export": "onEvent", "os": ["linux"], "requires": { "bins": ["git"], "env": ["K"] } } }',
      ),
      "folder",
    );
    expect(parsed).toEqual({
      ok: true,
      hook: {
        name: "my-hook",
        description: "Does things",
        homepage: "https://example.test/h",
        emoji: "🔗",
        events: ["command:new", "command"],
        exportName: "onEvent",
        os: ["linux"],
        always: false,
        requires: { bins: ["git"], anyBins: [], env: ["K"], config: [] },
      },
    });
  });

  it("takes the folder name when the frontmatter has none, and export defaults to default", () => {
    const parsed = parseHookMd(md('metadata: {"openclaw": {"events": "gateway:startup"}}'), "boot");
    expect(parsed.ok && parsed.hook).toMatchObject({
      name: "boot",
      events: ["gateway:startup"],
      exportName: "default",
    });
  });

  it("refuses what would never run or is mistyped, naming the field", () => {
    expect(parseHookMd(md("name: x"), "x")).toEqual({
      ok: false,
      error: "metadata.openclaw.events names no event: the hook would never run",
    });
    expect(parseHookMd(md('metadata: {"openclaw": {"events": ["Command New"]}}'), "x")).toEqual({
      ok: false,
      error: 'metadata.openclaw.events: "Command New" is not an event name (e.g. command:new)',
    });
    expect(parseHookMd(md('metadata: {"openclaw": {"events": [1]}}'), "x")).toMatchObject({
      ok: false,
      error: "metadata.openclaw.events must be a list of event names",
    });
    expect(
      parseHookMd(md('metadata: {"openclaw": {"events": ["command"], "export": 3}}'), "x"),
    ).toMatchObject({ ok: false, error: "metadata.openclaw.export must be an export name" });
    expect(parseHookMd("# no frontmatter", "x")).toMatchObject({
      ok: false,
      error: expect.stringContaining("HOOK.md must start with a --- line"),
    });
  });
});
