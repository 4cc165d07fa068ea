// `npm run bench`: speed and memory figures for Pincer, printed as one table.
// Runs against the built package (dist/), so it measures what users run.

import { channelRows } from "./channels.mjs";
import { chaosRows } from "./chaos.mjs";
import { cliRows } from "./cli.mjs";
import { clusterRows } from "./cluster.mjs";
import { configRows } from "./config.mjs";
import { fanoutRows } from "./fanout.mjs";
import { firstTurnRows } from "./first-turn.mjs";
import { floorRows } from "./floor.mjs";
import { gatewayRows } from "./gateway.mjs";
import { memoryRows } from "./memory.mjs";
import { pgListRows } from "./pg-list.mjs";
import { routingRows } from "./routing.mjs";
import { runtimeRows } from "./runtime.mjs";
import { sandboxRows } from "./sandbox.mjs";
import { sessionRows } from "./sessions.mjs";
import { soakRows } from "./soak.mjs";

const rows = [
  ...routingRows(),
  ...(await configRows()),
  ...(await cliRows()),
  ...(await sessionRows()),
  ...(await pgListRows()),
  ...(await memoryRows()),
  ...(await floorRows()),
  ...(await runtimeRows()),
  ...(await sandboxRows()),
  ...(await gatewayRows()),
  ...(await fanoutRows()),
  ...(await firstTurnRows()),
  ...(await channelRows()),
  ...(await chaosRows()),
  ...(await soakRows()),
  ...(await clusterRows()),
];

const header = ["benchmark", "result", "target"];
const table = [header, ...rows.map((row) => [row.name, row.result, row.target ?? ""])];
const widths = header.map((_, col) => Math.max(...table.map((row) => row[col].length)));
const line = (row) => `| ${row.map((cell, col) => cell.padEnd(widths[col])).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of table.slice(1)) console.log(line(row));
