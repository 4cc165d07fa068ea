// Route resolutions per second with 10, 1,000 and 10,000 bindings of mixed tiers.
import { resolveAgentRoute } from "../dist/index.js";
import { fmt, opsPerSecond } from "./measure.mjs";

/** A config with `count` bindings spread over every tier and a few agents. */
export function makeRoutingConfig(count) {
  const agents = Array.from({ length: 8 }, (_, i) => ({ id: `agent${i}` }));
  const bindings = [];
  for (let i = 0; i < count; i++) {
    const agentId = `agent${i % agents.length}`;
    const channel = ["whatsapp", "telegram", "discord", "slack"][i % 4];
    switch (i % 6) {
      case 0:
        bindings.push({ agentId, match: { channel, peer: { kind: "direct", id: `+1555${i}` } } });
        break;
      case 1:
        bindings.push({
          agentId,
          match: { channel, accountId: "*", peer: { kind: "group", id: `g${i}` } },
        });
        break;
      case 2:
        bindings.push({
          agentId,
          match: { channel: "discord", guildId: `guild${i}`, roles: [`r${i}`] },
        });
        break;
      case 3:
        bindings.push({ agentId, match: { channel: "slack", teamId: `T${i}` } });
        break;
      case 4:
        bindings.push({ agentId, match: { channel, accountId: `acct${i}` } });
        break;
      default:
        bindings.push({ agentId, match: { channel: `chan${i}`, accountId: "*" } });
    }
  }
  return { agents: { list: agents }, bindings };
}

function makeInputs(cfg, count) {
  const inputs = [];
  for (let i = 0; i < 1024; i++) {
    const n = (i * 7919) % Math.max(count, 1);
    const channel = ["whatsapp", "telegram", "discord", "slack"][n % 4];
    const kind = i % 3 === 0 ? "direct" : "group";
    inputs.push({
      cfg,
      channel,
      accountId: i % 5 === 0 ? `acct${n}` : undefined,
      peer: { kind, id: kind === "direct" ? `+1555${n}` : `g${n}` },
      guildId: channel === "discord" ? `guild${n}` : undefined,
      teamId: channel === "slack" ? `T${n}` : undefined,
      memberRoleIds: i % 2 === 0 ? [`r${n}`] : undefined,
    });
  }
  return inputs;
}

/** Bench rows: resolutions per second at three config sizes. */
export function routingRows() {
  return [10, 1_000, 10_000].map((count) => {
    const cfg = makeRoutingConfig(count);
    const inputs = makeInputs(cfg, count);
    const rate = opsPerSecond((i) => resolveAgentRoute(inputs[i & 1023]));
    return {
      name: `route resolutions/s, ${fmt(count)} bindings`,
      result: `${fmt(rate)}/s`,
      target: count === 1_000 ? ">= 1,000,000/s" : "",
    };
  });
}
