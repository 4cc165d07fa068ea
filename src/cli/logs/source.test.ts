import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { readLastLines } from "./source.js";

describe("readLastLines", () => {
  it("leaves out a line still being written, and stops its size before it", () => {
    const path = join(makeTempDir("pincer-logs-"), "gateway.log");
    writeFileSync(path, '{"msg":"one"}\n{"msg":"two"}\n{"msg":"thr');
    const first = readLastLines({ path, limit: 10, maxBytes: 1 << 20 });
    expect(first.lines).toEqual(['{"msg":"one"}', '{"msg":"two"}']);
    expect(first.size).toBe(Buffer.byteLength('{"msg":"one"}\n{"msg":"two"}\n'));
    appendFileSync(path, 'ee"}\n');
    expect(readLastLines({ path, limit: 1, maxBytes: 1 << 20 }).lines).toEqual(['{"msg":"three"}']);
  });

  it("skips the cut first line of a byte window and keeps the limit", () => {
    const path = join(makeTempDir("pincer-logs-"), "gateway.log");
    writeFileSync(path, "aaaaaaaaaa\nbb\ncc\ndd\n");
    const tail = readLastLines({ path, limit: 2, maxBytes: 12 });
    expect(tail.lines).toEqual(["cc", "dd"]);
    expect(tail.size).toBe(20);
  });
});
