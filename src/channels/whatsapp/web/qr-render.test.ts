import { describe, expect, it } from "vitest";
import { qrDataUrl, qrMatrix, qrSvg, qrTerminal } from "./qr-render.js";

// The shape of a WhatsApp Web link QR: ref, noise key, identity key, adv secret.
const LINK_QR =
  "2@Yx0cTJmYpY1mDhV3m1nqVwW8q0aT9bK0eR3sT6uV9wX2yZ5a8bC1dE4fG7hI0jK3lM6nO9pQ2rS5tU8vW1xY4zA7," +
  "bW9ja2tleW5vaXNla2V5MDEyMzQ1Njc4OWFiY2RlZg==,aWRlbnRpdHlrZXkwMTIzNDU2Nzg5YWJjZGVmZ2g=," +
  "YWR2c2VjcmV0MDEyMzQ1Njc4OWFiY2RlZmdoaWprbA==";

/** True when the 7×7 finder pattern (dark ring, light ring, dark 3×3 core) sits at (top, left). */
function hasFinder(modules: boolean[][], top: number, left: number): boolean {
  for (let r = 0; r < 7; r++) {
    for (let c = 0; c < 7; c++) {
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      const dark = ring !== 2;
      if (modules[top + r]?.[left + c] !== dark) return false;
    }
  }
  return true;
}

/** The matrix an SVG's path draws (runs `M x y h n v1 h-n z`, offset by the quiet zone). */
function matrixFromSvg(svg: string, size: number): boolean[][] {
  const d = /<path fill="#000" d="([^"]*)"\/>/.exec(svg)?.[1] ?? "";
  const modules = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const run of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    const [x, y, n, back] = run.slice(1).map(Number) as [number, number, number, number];
    expect(back).toBe(n);
    for (let i = 0; i < n; i++) {
      const row = modules[y - 4];
      if (!row) throw new Error(`run outside the symbol at row ${y}`);
      row[x - 4 + i] = true;
    }
  }
  expect(d.replace(/M\d+ \d+h\d+v1h-\d+z/g, "")).toBe("");
  return modules;
}

/** The matrix qrcode-terminal's small mode draws (inverted: a full block is two light modules). */
function matrixFromTerminal(drawn: string, size: number): boolean[][] {
  const lines = drawn.split("\n").slice(1, 1 + Math.ceil(size / 2));
  const modules: boolean[][] = [];
  for (const line of lines) {
    const cells = [...line].slice(1, 1 + size);
    const top = cells.map((ch) => ch === "\u2584" || ch === " ");
    const bottom = cells.map((ch) => ch === "\u2580" || ch === " ");
    modules.push(top, bottom);
  }
  return modules.slice(0, size);
}

describe("WhatsApp QR rendering", () => {
  it("encodes a link QR into a well-formed symbol: square, finder patterns, timing pattern", () => {
    const { size, modules } = qrMatrix(LINK_QR);
    expect((size - 17) % 4).toBe(0);
    expect(size).toBeGreaterThanOrEqual(21);
    expect(modules).toHaveLength(size);
    for (const row of modules) expect(row).toHaveLength(size);
    expect(hasFinder(modules, 0, 0)).toBe(true);
    expect(hasFinder(modules, 0, size - 7)).toBe(true);
    expect(hasFinder(modules, size - 7, 0)).toBe(true);
    expect(hasFinder(modules, size - 7, size - 7)).toBe(false);
    for (let i = 8; i < size - 8; i++) {
      expect(modules[6]?.[i]).toBe(i % 2 === 0);
      expect(modules[i]?.[6]).toBe(i % 2 === 0);
    }
  });

  it("gives the same text the same matrix and another text another one", () => {
    expect(qrMatrix(LINK_QR)).toEqual(qrMatrix(LINK_QR));
    const other = qrMatrix(LINK_QR.replace("2@Yx0", "2@Zx0"));
    expect(other.size).toBe(qrMatrix(LINK_QR).size);
    expect(other.modules).not.toEqual(qrMatrix(LINK_QR).modules);
  });

  it("draws the matrix as an SVG with a quiet zone, in a base64 SVG data URL", () => {
    const { size, modules } = qrMatrix(LINK_QR);
    const svg = qrSvg(LINK_QR);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(svg).toContain(`viewBox="0 0 ${size + 8} ${size + 8}"`);
    expect(svg).toContain(`<rect width="${size + 8}" height="${size + 8}" fill="#fff"/>`);
    expect(matrixFromSvg(svg, size)).toEqual(modules);

    const url = qrDataUrl(LINK_QR);
    const prefix = "data:image/svg+xml;base64,";
    expect(url.startsWith(prefix)).toBe(true);
    expect(Buffer.from(url.slice(prefix.length), "base64").toString("utf8")).toBe(svg);
  });

  it("draws the same matrix in the terminal, two modules per character", () => {
    const { size, modules } = qrMatrix(LINK_QR);
    const drawn = qrTerminal(LINK_QR);
    const lines = drawn.split("\n");
    // A border line above, one line per two rows (QR sizes are odd: the last ends in a newline).
    expect(lines.length).toBe(Math.ceil(size / 2) + 2);
    expect(matrixFromTerminal(drawn, size)).toEqual(modules);
  });
});
