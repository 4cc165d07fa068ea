// PostgreSQL going away under a running store (a TCP relay to the real server, cut and restored): the
// in-memory index keeps working, flush() rejects with an error naming the host (never the password),
// the queued writes are retried and land once the server is reachable again.
import { connect, createServer, type Server, type Socket } from "node:net";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { resolveStatePaths } from "../src/config/paths.js";
import { SessionStoreRegistry } from "../src/sessions/index.js";
import { createTestDatabase } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const db = await createTestDatabase("sessions_pg_outage");

/** A relay on a fixed local port to the database's server; `cut()` drops it, `restore()` reopens. */
async function relay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    port: () => port,
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    restore: listen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) =>
        server?.listening ? server.close(() => resolve()) : resolve(),
      );
    },
  };
}

const sql = db ? postgres(db.url, { max: 1, onnotice: () => {} }) : undefined;
afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe.skipIf(!db)("sessions in PostgreSQL through an outage", () => {
  it("keeps serving from memory, reports the outage and writes everything once it is back", async () => {
    const target = new URL(db!.url);
    const hop = await relay(target);
    const url = new URL(db!.url);
    url.hostname = "127.0.0.1";
    url.port = String(hop.port());
    const home = makeTempDir("pincer-pg-outage-");
    const paths = resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: home } });
    const cfg = {
      cluster: {
        store: { kind: "postgres" as const, url: url.toString(), connectTimeoutMs: 1000 },
      },
    };
    const registry = new SessionStoreRegistry({ cfg, paths });
    try {
      await registry.ready();
      const store = registry.forAgent("main");
      store.getOrCreate("agent:main:a");
      await store.flush();

      await hop.cut();
      store.getOrCreate("agent:main:b");
      store.update("agent:main:a", { label: "while down" });
      expect(store.get("agent:main:a")?.label).toBe("while down");
      const error = await store.flush().then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      expect(error?.message).toContain(`127.0.0.1:${hop.port()}`);
      expect(error?.message).not.toContain(`:${target.password}@`);

      await hop.restore();
      // Retried in the background; a flush now waits for the retry to land.
      for (let attempt = 0; attempt < 50; attempt++) {
        const ok = await store.flush().then(
          () => true,
          () => false,
        );
        if (ok) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const rows = await sql!`select session_key, entry->>'label' as label
        from pincer.sessions order by session_key`;
      expect(rows.map((r) => [r.session_key, r.label])).toEqual([
        ["agent:main:a", "while down"],
        ["agent:main:b", null],
      ]);
    } finally {
      await registry.closeAll();
      await hop.close();
    }
  }, 60_000);
});
