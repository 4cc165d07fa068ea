// `pincer uninstall --workspace` judges a workspace by where it really is: a path through a symlinked
// folder that lands on the home dir or the state dir is refused like the home dir itself (a lexical
// check alone would `rm -rf` the real home).
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { removeWhenDone } from "../../../test/helpers/temp-cleanup.js";

describe("uninstall through symlinked parents", () => {
  it("refuses a workspace that is the home dir or the state dir reached via a symlink", async () => {
    const sb = createCliSandbox();
    const links = mkdtempSync(join(tmpdir(), "pincer-links-"));
    removeWhenDone(links);
    symlinkSync(dirname(sb.home), join(links, "up"));
    symlinkSync(sb.home, join(links, "home"));
    const viaHome = join(links, "up", basename(sb.home));
    const viaState = join(links, "home", ".openclaw");
    const real = join(links, "real-ws");
    mkdirSync(real);
    sb.writeConfig(
      JSON.stringify({
        agents: {
          list: [
            { id: "main", workspace: viaHome },
            { id: "state", workspace: viaState },
            { id: "ok", workspace: real },
          ],
        },
      }),
    );
    writeFileSync(join(sb.home, "keep.txt"), "mine");
    const res = await sb.run(["uninstall", "--workspace", "--yes"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `refused ${viaHome} (not removing workspace: it is or contains the home dir`,
    );
    expect(res.stdout).toContain(`refused ${viaState} (not removing workspace: it is or contains`);
    expect(existsSync(join(sb.home, "keep.txt"))).toBe(true);
    expect(existsSync(sb.configPath)).toBe(true);
    expect(existsSync(real)).toBe(false);
  });
});
