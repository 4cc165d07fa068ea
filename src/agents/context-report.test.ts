import { describe, expect, it } from "vitest";
import {
  buildContextReport,
  type ContextReport,
  type ContextReportParams,
  parseSkillsBlock,
} from "./context-report.js";
import { formatContextReport, formatCount } from "./context-report-format.js";

const ws = "/w";

function params(overrides: Partial<ContextReportParams> = {}): ContextReportParams {
  return {
    mode: "full",
    agent: { id: "main", name: "Pip" },
    tools: [
      {
        name: "read",
        description: "Read a file.",
        parameters: {
          type: "object",
          properties: { path: { type: "string" } },
          required: ["path"],
        },
      },
      {
        name: "exec",
        description: "Run a shell command.",
        parameters: {
          type: "object",
          properties: { command: { type: "string" }, timeoutMs: { type: "number" } },
          required: ["command"],
        },
      },
      { name: "session_status", description: "Time and usage.", parameters: { type: "object" } },
    ],
    skillsPrompt:
      "<available_skills>\n" +
      "<skill><name>weather</name><description>Forecasts.</description><location>/s/weather/SKILL.md</location></skill>\n" +
      "<skill><name>q&amp;a</name><description>FAQ.</description><location>/s/qa/SKILL.md</location></skill>\n" +
      "</available_skills>",
    workspaceDir: ws,
    bootstrapFiles: [
      {
        name: "AGENTS.md",
        path: `${ws}/AGENTS.md`,
        content: "Be brief.\n",
        missing: false,
        truncated: false,
      },
      { name: "SOUL.md", path: `${ws}/SOUL.md`, content: "", missing: true, truncated: false },
      {
        name: "USER.md",
        path: `${ws}/USER.md`,
        content: "Ana.\n[... truncated ...]\nEnd.",
        missing: false,
        truncated: true,
        rawChars: 25000,
      },
    ],
    userTimezone: "UTC",
    runtime: {
      host: "h",
      os: "linux",
      node: "v20",
      model: "m/x",
      agentId: "main",
      sessionKey: "agent:main:main",
    },
    history: { messages: 4, chars: 1800 },
    ...overrides,
  };
}

describe("buildContextReport", () => {
  it("adds up: sections to the prompt, parts to the totals", () => {
    const report = buildContextReport(params());
    const sections = report.systemPrompt.sections.reduce((sum, s) => sum + s.chars, 0);
    expect(sections).toBe(report.systemPrompt.chars);
    const schemas = report.tools.reduce((sum, t) => sum + t.schemaChars, 0);
    expect(report.totals).toEqual({
      systemPromptChars: report.systemPrompt.chars,
      toolSchemaChars: schemas,
      historyChars: 1800,
      chars: report.systemPrompt.chars + schemas + 1800,
      estimatedTokens: Math.ceil((report.systemPrompt.chars + schemas + 1800) / 4),
    });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("reports each file, tool and skill as sent", () => {
    const p = params();
    const report = buildContextReport(p);
    expect(report.agentId).toBe("main");
    expect(report.sessionKey).toBe("agent:main:main");
    expect(report.files).toEqual([
      {
        name: "AGENTS.md",
        path: "/w/AGENTS.md",
        missing: false,
        truncated: false,
        rawChars: 10,
        injectedChars: 9,
      },
      {
        name: "SOUL.md",
        path: "/w/SOUL.md",
        missing: true,
        truncated: false,
        rawChars: 0,
        injectedChars: "[MISSING] Expected at: /w/SOUL.md".length,
      },
      {
        name: "USER.md",
        path: "/w/USER.md",
        missing: false,
        truncated: true,
        rawChars: 25000,
        injectedChars: "Ana.\n[... truncated ...]\nEnd.".length,
      },
    ]);
    expect(report.tools).toEqual(
      p.tools.map((tool) => ({
        name: tool.name,
        listChars: `- ${tool.name}: ${tool.description}`.length,
        schemaChars: JSON.stringify({
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        }).length,
      })),
    );
    expect(report.skills).toEqual({
      count: 2,
      chars: p.skillsPrompt?.length,
      entries: [
        { name: "weather", chars: 112 },
        { name: "q&a", chars: 101 },
      ],
    });
    expect(report.history).toEqual({ messages: 4, chars: 1800 });
  });

  it("counts only what the prompt mode sends", () => {
    const minimal = buildContextReport(params({ mode: "minimal" }));
    expect(minimal.skills).toEqual({ count: 0, chars: 0, entries: [] });
    expect(minimal.files).toHaveLength(3);
    const none = buildContextReport(params({ mode: "none", history: undefined }));
    expect(none.systemPrompt.sections.map((s) => s.id)).toEqual(["identity"]);
    expect(none.files).toEqual([]);
    expect(none.tools.every((t) => t.listChars === 0 && t.schemaChars > 0)).toBe(true);
    expect(none.history).toEqual({ messages: 0, chars: 0 });
  });

  it("parses skill entries from an <available_skills> block", () => {
    expect(parseSkillsBlock("")).toEqual([]);
    expect(parseSkillsBlock("<skill><name> a&lt;b </name></skill>")).toEqual([
      { name: "a<b", chars: 36 },
    ]);
  });
});

const SMALL: ContextReport = {
  agentId: "main",
  sessionKey: "agent:main:main",
  model: "m/x",
  mode: "full",
  systemPrompt: {
    chars: 2400,
    sections: [
      { id: "identity", title: "Identity", chars: 60 },
      { id: "tooling", title: "Tooling", chars: 140 },
      { id: "project-context", title: "Workspace Files (injected)", chars: 2100 },
      { id: "runtime", title: "Runtime", chars: 100 },
    ],
  },
  files: [
    {
      name: "AGENTS.md",
      path: "/w/AGENTS.md",
      missing: false,
      truncated: false,
      rawChars: 900,
      injectedChars: 900,
    },
    {
      name: "SOUL.md",
      path: "/w/SOUL.md",
      missing: true,
      truncated: false,
      rawChars: 0,
      injectedChars: 33,
    },
    {
      name: "USER.md",
      path: "/w/USER.md",
      missing: false,
      truncated: true,
      rawChars: 25000,
      injectedChars: 1000,
    },
  ],
  tools: [
    { name: "read", listChars: 20, schemaChars: 135 },
    { name: "exec", listChars: 28, schemaChars: 1179 },
  ],
  skills: { count: 1, chars: 150, entries: [{ name: "weather", chars: 112 }] },
  history: { messages: 0, chars: 0 },
  totals: {
    systemPromptChars: 2400,
    toolSchemaChars: 1314,
    historyChars: 0,
    chars: 3714,
    estimatedTokens: 929,
  },
};

const LIST = `Context for agent main, session agent:main:main (model m/x, prompt mode full)

Sent each run:
  System prompt  2,400 chars  ~600 tok  4 sections
  Tool schemas   1,314 chars  ~329 tok  2 tools
  History            0 chars    ~0 tok  0 messages
  Total          3,714 chars  ~929 tok

Inside the system prompt:
  Workspace files  1,933 chars  3 files: 1 truncated, 1 missing
  Skills list        150 chars  1 skill
  Tool list           48 chars  2 tools

Workspace files (raw -> injected chars):
  AGENTS.md  OK            900  ->    900
  SOUL.md    MISSING         0  ->     33
  USER.md    TRUNCATED  25,000  ->  1,000
`;

const DETAIL = `${LIST}
System prompt sections:
  Identity                       60 chars   ~15 tok
  Tooling                       140 chars   ~35 tok
  Workspace Files (injected)  2,100 chars  ~525 tok
  Runtime                       100 chars   ~25 tok

Tool schemas (largest first):
  exec  1,179 chars  ~295 tok
  read    135 chars   ~34 tok

Skills (entries in the list):
  weather  112 chars
`;

describe("formatContextReport", () => {
  it("prints the /context list summary", () => {
    expect(formatContextReport(SMALL, { detail: false })).toBe(LIST);
  });

  it("prints the /context detail breakdown", () => {
    expect(formatContextReport(SMALL, { detail: true })).toBe(DETAIL);
  });

  it("says so when nothing is injected, listed or sent", () => {
    const empty: ContextReport = {
      ...SMALL,
      sessionKey: undefined,
      files: [],
      tools: [],
      skills: { count: 0, chars: 0, entries: [] },
    };
    const text = formatContextReport(empty, { detail: true });
    expect(text.split("\n")[0]).toBe("Context for agent main (model m/x, prompt mode full)");
    expect(text).toContain("Workspace files: none injected");
    expect(text).toContain("Tool schemas: none");
    expect(text).toContain("Skills: none listed");
  });

  it("formats counts the same in every locale", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1234567)).toBe("1,234,567");
  });
});
