// `pincer skills list [--agent ID] [--json]`: every skill an agent can see, where it comes from,
// and whether it reaches the prompt (ready) or why not (blocked, disabled, shadowed, invalid).

import {
  discoverSkills,
  listSkillSourceDirs,
  type SkillRecord,
  type SkillStatus,
} from "../../agents/skills/index.js";
import { agentSkillParams, selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { listOptions } from "./commands.js";

/** Pads cells to column widths, then lets `paint` colour a padded cell (ANSI codes add no width). */
function formatTable(
  rows: string[][],
  paint: (row: number, col: number, text: string) => string,
): string[] {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  return rows.map((row, index) =>
    row
      .map((cell, col) =>
        paint(index, col, col === row.length - 1 ? cell : cell.padEnd(widths[col])),
      )
      .join("  ")
      .trimEnd(),
  );
}

/** Lists the skills of one agent (default: the default agent) with source, status and reason. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const selected = selectAgent(loaded, opts.agent);
  const { agentId, agent } = selected;
  const home = loaded.paths.home;
  const params = agentSkillParams(ctx, { loaded, selected });
  const { skills, problems } = discoverSkills(params);

  if (opts.json) {
    printJson(ctx, { agentId, workspace: agent.workspace, skills, problems });
    return 0;
  }
  const s = style(ctx);
  const paint: Record<SkillStatus, (text: string) => string> = {
    ready: s.green,
    blocked: s.yellow,
    disabled: s.dim,
    shadowed: s.dim,
    invalid: s.red,
  };
  const ready = skills.filter((skill) => skill.status === "ready").length;
  printLine(ctx, s.bold(`Skills of agent ${agentId} (${ready} ready of ${skills.length})`));
  if (skills.length > 0) {
    const cells = (skill: SkillRecord): string[] => [
      skill.name,
      skill.source,
      skill.status,
      skill.reason ? skill.reason.replaceAll(home + "/", "~/") : "-",
      displayPath(skill.location, home),
    ];
    const header = ["NAME", "SOURCE", "STATUS", "REASON", "LOCATION"];
    const lines = formatTable([header, ...skills.map(cells)], (row, col, text) => {
      if (row === 0) return s.dim(text);
      return col === 2 ? paint[skills[row - 1].status](text) : text;
    });
    for (const line of lines) printLine(ctx, line);
  } else {
    printLine(ctx, "No skills found.");
  }
  const searched = listSkillSourceDirs(params).map(
    (src) => `${src.source} ${displayPath(src.dir, home)}`,
  );
  printLine(ctx, s.dim(`searched: ${searched.join(", ")}`));
  for (const problem of problems) {
    ctx.stderr(
      `warning: ${problem.source} skills ${displayPath(problem.path, home)}: ${problem.message}\n`,
    );
  }
  return 0;
}
