// `sandbox.mode` is never silently ignored: through the real run loop and the fake model server, a
// sandboxed session's host tools come back as error results naming the setting and nothing runs.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/runtime/run/index.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
} from "./helpers/gateway-sandbox.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
let box: GatewaySandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  await box?.close();
  box = undefined;
});

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The tool results the model saw in its second request. */
function toolResults(fake: RuntimeSandbox["fake"]): string[] {
  const body = fake.chatRequests[1]?.body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return body.messages.filter((m) => m.role === "tool").map((m) => JSON.stringify(m.content));
}

describe("sandbox.mode without a sandbox runtime", () => {
  it('refuses exec and read for agents.list[].sandbox.mode "all" (a locked-down family agent)', async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: { list: [{ id: "main", sandbox: { mode: "all", scope: "agent" } }] },
    }));
    const token = join(sb.stateDir, "gateway.token");
    writeFileSync(token, "tok-should-not-leak");
    const marker = join(sb.stateDir, "pwned");
    sb.fake.toolCalls([
      { name: "exec", args: { command: `echo owned > ${marker}` } },
      { name: "read", args: { path: token } },
    ]);
    sb.fake.text("done");
    const handle = sb.run({ sessionKey: "agent:main:main", message: "go" });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);
    expect(result.status).toBe("ok");
    const ends = events.filter((e) => e.type === "tool_end");
    expect(ends.map((e) => [e.toolName, e.isError])).toEqual([
      ["exec", true],
      ["read", true],
    ]);
    const seen = toolResults(sb.fake);
    expect(seen[0]).toContain(
      'agents.list[0].sandbox.mode is \\"all\\": sandboxed tools are not available yet in Pincer; exec refused',
    );
    expect(seen[1]).toContain("read refused");
    expect(seen.join("")).not.toContain("tok-should-not-leak");
    expect(existsSync(marker)).toBe(false);
  });

  it('agents.defaults.sandbox.mode "non-main": the main session runs tools, a group session does not', async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: { defaults: { sandbox: { mode: "non-main" } }, list: [{ id: "main" }] },
    }));
    mkdirSync(sb.workspace, { recursive: true });
    const mainMarker = join(sb.workspace, "from-main");
    sb.fake.toolCall("exec", { command: `touch ${mainMarker}` });
    sb.fake.text("ok");
    const first = sb.run({ sessionKey: "agent:main:main", message: "touch" });
    const [firstEvents] = await Promise.all([collect(first.events), first.result]);
    expect(firstEvents.find((e) => e.type === "tool_end")).toMatchObject({ isError: false });
    expect(existsSync(mainMarker)).toBe(true);

    const groupMarker = join(sb.workspace, "from-group");
    sb.fake.toolCall("exec", { command: `touch ${groupMarker}` });
    sb.fake.text("ok");
    const group = sb.run({ sessionKey: "agent:main:telegram:group:-1001", message: "touch" });
    const [groupEvents] = await Promise.all([collect(group.events), group.result]);
    expect(groupEvents.find((e) => e.type === "tool_end")).toMatchObject({ isError: true });
    expect(existsSync(groupMarker)).toBe(false);
    const seen = JSON.stringify(sb.fake.chatRequests.at(-1)?.body);
    expect(seen).toContain('agents.defaults.sandbox.mode is \\"non-main\\"');
  });

  it('an agent\'s own mode "off" overrides the defaults', async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: {
        defaults: { sandbox: { mode: "all" } },
        list: [{ id: "main", sandbox: { mode: "off" } }],
      },
    }));
    mkdirSync(sb.workspace, { recursive: true });
    const marker = join(sb.workspace, "ran");
    sb.fake.toolCall("exec", { command: `touch ${marker}` });
    sb.fake.text("ok");
    const handle = sb.run({ sessionKey: "agent:main:main", message: "touch" });
    await Promise.all([collect(handle.events), handle.result]);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("gateway start", () => {
  it("warns once per sandboxed agent, naming the key, and again only for a reload that adds one", async () => {
    box = await createGatewaySandbox({
      config: () => ({
        agents: { list: [{ id: "main" }, { id: "family", sandbox: { mode: "all" } }] },
      }),
    });
    const client = await box.connect();
    const tail = async () =>
      ((await client.request("logs.tail", { limit: 200 })).payload as Loose).lines.join("\n");
    const warning = 'agents.list[1].sandbox.mode is "all": sandboxing is not available yet';
    const first = await tail();
    expect(first.split(warning).length - 1).toBe(1);
    expect(first).not.toContain("agents.list[0].sandbox.mode");
    const { hash } = (await client.request("config.get")).payload as Loose;
    const patched = await client.request("config.patch", {
      baseHash: hash,
      raw: '{ agents: { list: [{ id: "main", sandbox: { mode: "non-main" } }, { id: "family", sandbox: { mode: "all" } }] } }',
    });
    expect(patched.ok).toBe(true);
    const second = await tail();
    expect(second.split(warning).length - 1).toBe(1);
    expect(second).toContain('agents.list[0].sandbox.mode is "non-main"');
  });
});
