// A fresh PostgreSQL database per test file on the server of PINCER_TEST_PG_URL (default: the local
// pincer/pincer role), dropped after the file's tests. When the server is not reachable the file's
// tests skip with a loud warning, except under CI=true where that is a failure.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll } from "vitest";

/** The admin URL tests connect with. */
export const TEST_PG_URL =
  process.env.PINCER_TEST_PG_URL ?? "postgres://pincer:pincer@127.0.0.1:5432/postgres";

/** A database made for one test file. */
export interface TestDatabase {
  /** URL of the fresh database (same credentials as the admin URL). */
  url: string;
  name: string;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Creates `pincer_test_<label>_<random>` and registers its drop in afterAll; undefined (after a
 * console.warn) when PostgreSQL is unreachable, thrown under CI=true. Call at the file's top level.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase | undefined> {
  const admin = postgres(TEST_PG_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  const name = `pincer_test_${label.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  try {
    await admin`create database ${admin(name)}`;
  } catch (err) {
    await admin.end({ timeout: 1 });
    const message = `PostgreSQL not reachable at ${new URL(TEST_PG_URL).host} (${String(err)})`;
    if (process.env.CI === "true") throw new Error(`${message}: required under CI=true`);
    console.warn(`\n!!! SKIPPING PostgreSQL tests (${label}): ${message}\n`);
    return undefined;
  }
  afterAll(async () => {
    try {
      await admin`drop database if exists ${admin(name)} with (force)`;
    } finally {
      await admin.end({ timeout: 5 });
    }
  });
  return { url: withDatabase(TEST_PG_URL, name), name };
}
