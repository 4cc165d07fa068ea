import { describe, expect, it } from "vitest";
import { samplePromptParams } from "../../test/helpers/prompt-fixture.js";
import {
  buildSystemPrompt,
  type PromptBootstrapFile,
  type SystemPromptParams,
} from "./system-prompt.js";
import { bootstrapFileHeading, formatToolLine } from "./system-prompt-sections.js";

const ws = "/home/ana/.openclaw/workspace";

function smallFiles(): PromptBootstrapFile[] {
  return [
    { name: "AGENTS.md", path: `${ws}/AGENTS.md`, content: "# Rules\nBe brief.\n" },
    { name: "SOUL.md", path: `${ws}/SOUL.md`, content: "Calm, precise." },
    { name: "BOOTSTRAP.md", path: `${ws}/BOOTSTRAP.md`, content: "Say hello; learn names." },
  ].map((file) => ({ ...file, missing: false, truncated: false }));
}

function fullParams(overrides: Partial<SystemPromptParams> = {}): SystemPromptParams {
  return samplePromptParams({ workspaceDir: ws, bootstrapFiles: smallFiles() }, overrides);
}

const ids = (params: SystemPromptParams) => buildSystemPrompt(params).sections.map((s) => s.id);

describe("buildSystemPrompt", () => {
  it("renders everything in full mode, in OpenClaw's section order", () => {
    const params = fullParams({
      skillsPrompt: "<available_skills>\n<skill><name>weather</name></skill>\n</available_skills>",
      sandbox: { enabled: true, workspaceDir: "/workspace", elevated: true },
      modelAliases: [{ alias: "sonnet", model: "anthropic/claude-sonnet-4-5" }],
      owners: ["+34600111222"],
      extraSystemPrompt: "This group is about the house.",
    });
    expect(ids(params)).toEqual([
      "identity",
      "tooling",
      "tool-call-style",
      "safety",
      "skills",
      "memory-recall",
      "self-update",
      "model-aliases",
      "workspace",
      "documentation",
      "project-context",
      "sandbox",
      "user-identity",
      "time",
      "reply-tags",
      "messaging",
      "silent-replies",
      "heartbeats",
      "extra-context",
      "runtime",
      "reasoning",
    ]);
  });

  it("keeps only the sub-agent sections in minimal mode", () => {
    const params = fullParams({
      mode: "minimal",
      skillsPrompt: "<available_skills></available_skills>",
      sandbox: { enabled: true },
      modelAliases: [{ alias: "sonnet", model: "anthropic/claude-sonnet-4-5" }],
      owners: ["+34600111222"],
      extraSystemPrompt: "Summarize the repo's open issues.",
    });
    expect(ids(params)).toEqual([
      "identity",
      "tooling",
      "tool-call-style",
      "safety",
      "workspace",
      "documentation",
      "project-context",
      "sandbox",
      "time",
      "extra-context",
      "runtime",
      "reasoning",
    ]);
    const { text } = buildSystemPrompt(params);
    expect(text).toContain("## Subagent Context\nSummarize the repo's open issues.");
    expect(text).not.toContain("NO_REPLY");
    expect(text).not.toContain("HEARTBEAT_OK");
  });

  it("is only the identity line in none mode", () => {
    const result = buildSystemPrompt(fullParams({ mode: "none" }));
    expect(result.text).toBe("You are Molty 🦞, a personal assistant running inside Pincer.");
    expect(result.sections).toEqual([
      { id: "identity", title: "Identity", chars: result.text.length },
    ]);
    const anonymous = buildSystemPrompt(fullParams({ mode: "none", agent: { id: "work" } }));
    expect(anonymous.text).toBe("You are a personal assistant running inside Pincer.");
  });

  it("omits sections whose input is absent", () => {
    const params = fullParams({ tools: [], docsPath: undefined, bootstrapFiles: [] });
    expect(ids(params)).not.toEqual(
      expect.arrayContaining(["skills", "memory-recall", "self-update", "documentation"]),
    );
    expect(ids(params)).not.toContain("project-context");
    expect(buildSystemPrompt(params).text).toContain("## Tooling\nNo tools are available.");
  });

  it("adds the Sandbox section only when the sandbox is on", () => {
    expect(ids(fullParams())).not.toContain("sandbox");
    expect(ids(fullParams({ sandbox: { enabled: false } }))).not.toContain("sandbox");
    const on = buildSystemPrompt(fullParams({ sandbox: { enabled: true, workspaceDir: "/ws" } }));
    expect(on.sections.map((s) => s.id)).toContain("sandbox");
    expect(on.text).toContain("Inside it, the workspace is /ws.");
    expect(on.text).toContain("Elevated exec is off.");
    expect(on.text).not.toContain("It is not a sandbox");
    expect(buildSystemPrompt(fullParams()).text).toContain("It is not a sandbox");
    const ro = buildSystemPrompt(
      fullParams({ sandbox: { enabled: true, workspaceDir: "/workspace", workspaceAccess: "ro" } }),
    );
    expect(ro.text).toContain(
      "It is the agent workspace, read-only: write, edit and apply_patch are refused.",
    );
  });

  it("carries the time zone but never a clock", () => {
    const { text } = buildSystemPrompt(fullParams());
    expect(text).toContain("User time zone: Europe/Madrid; 24-hour clock.");
    expect(text).toContain("No clock here: use session_status for the current date and time.");
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toMatch(/\d{1,2}:\d{2}/);
    expect(text).not.toContain(String(new Date().getUTCFullYear()));
    const unset = buildSystemPrompt(
      fullParams({ userTimezone: undefined, timeFormat: undefined, tools: [] }),
    ).text;
    expect(unset).toContain("User time zone: not configured.");
    expect(unset).toContain("never guess the current date or time");
  });

  it("renders each bootstrap file under its heading, with missing and truncation markers", () => {
    const files: PromptBootstrapFile[] = [
      {
        name: "AGENTS.md",
        path: `${ws}/AGENTS.md`,
        content: "Be kind.\n",
        missing: false,
        truncated: false,
      },
      { name: "TOOLS.md", path: `${ws}/TOOLS.md`, content: "", missing: true, truncated: false },
      {
        name: "USER.md",
        path: `${ws}/USER.md`,
        content: "head\n[...truncated, read USER.md for full content...]\ntail",
        missing: false,
        truncated: true,
      },
      {
        name: "SOUL.md",
        path: `${ws}/SOUL.md`,
        content: "[missing file] SOUL.md does not exist",
        missing: true,
        truncated: false,
      },
      { name: "MEMORY.md", path: `${ws}/MEMORY.md`, content: "", missing: false, truncated: true },
      {
        name: "EMPTY.md",
        path: `${ws}/EMPTY.md`,
        content: " \n",
        missing: false,
        truncated: false,
      },
      {
        name: "EXTRA.md",
        path: "/etc/pincer/EXTRA.md",
        content: "from a hook",
        missing: false,
        truncated: false,
      },
    ];
    const { text } = buildSystemPrompt(fullParams({ bootstrapFiles: files }));
    expect(text).toContain(
      [
        "# Project Context",
        "## AGENTS.md\nBe kind.",
        `## TOOLS.md\n[MISSING] Expected at: ${ws}/TOOLS.md`,
        "## USER.md\nhead\n[...truncated, read USER.md for full content...]\ntail",
        "## SOUL.md\n[missing file] SOUL.md does not exist",
        `## MEMORY.md\n[OMITTED] Over the size cap; read ${ws}/MEMORY.md.`,
        "## /etc/pincer/EXTRA.md\nfrom a hook",
      ].join("\n\n"),
    );
    expect(text).toContain("## Workspace Files (injected)\n");
    expect(text).not.toContain("EMPTY.md");
    expect(text).toContain("Some are truncated");
    expect(text).not.toContain("BOOTSTRAP.md exists");
    expect(buildSystemPrompt(fullParams()).text).toContain("BOOTSTRAP.md exists");
  });

  it("shows paths relative to the workspace in file headings", () => {
    const file = (path: string) => ({
      name: "X.md",
      path,
      content: "x",
      missing: false,
      truncated: false,
    });
    expect(bootstrapFileHeading(file(`${ws}/X.md`), ws)).toBe("## X.md");
    expect(bootstrapFileHeading(file(`${ws}/sub/X.md`), `${ws}/`)).toBe("## sub/X.md");
    expect(bootstrapFileHeading(file(`${ws}-2/X.md`), ws)).toBe(`## ${ws}-2/X.md`);
    expect(bootstrapFileHeading(file("C:\\ws\\X.md"), "C:\\ws")).toBe("## X.md");
  });

  it("lists tools one line each, in the order given", () => {
    const { text } = buildSystemPrompt(fullParams());
    expect(text).toContain("- read: Read a file (text or image) by path.\n- write: Create");
    expect(formatToolLine({ name: "x", description: "two\n  lines" })).toBe("- x: two lines");
    expect(formatToolLine({ name: "y" })).toBe("- y");
    expect(formatToolLine({ name: "z", description: "a".repeat(300) })).toHaveLength(165);
  });

  it("puts the runtime on one compact line", () => {
    const { text } = buildSystemPrompt(
      fullParams({
        runtime: {
          ...fullParams().runtime,
          capabilities: ["voice", "reactions"],
          repoRoot: "/src/p",
        },
      }),
    );
    expect(text).toContain(
      "## Runtime\nhost=ana-laptop | os=linux 6.8 (x64) | node=v20.19.0 | model=anthropic/claude-sonnet-4-5" +
        " | agent=main | session=agent:main:main | channel=telegram | capabilities=reactions,voice" +
        " | thinking=low | repo=/src/p\n",
    );
  });

  it("section sizes add up exactly to the prompt length", () => {
    for (const mode of ["full", "minimal", "none"] as const) {
      const result = buildSystemPrompt(fullParams({ mode, sandbox: { enabled: true } }));
      const sum = result.sections.reduce((total, s) => total + s.chars, 0);
      expect(sum).toBe(result.text.length);
    }
  });
});
