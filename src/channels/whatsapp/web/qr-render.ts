// The WhatsApp link QR, drawn two ways from one encoder (the QR encoder qrcode-terminal vendors):
// for a terminal (qrcode-terminal's small mode, two modules per character cell) and for the UI as
// an SVG data URL built from the same module matrix. Same text, same matrix, on both surfaces.
import { requireCommonJs } from "../../../lib/require-commonjs.js";

interface VendoredQrCode {
  addData(data: string): void;
  make(): void;
  getModuleCount(): number;
  isDark(row: number, col: number): boolean;
}
type VendoredQrCodeClass = new (typeNumber: number, errorCorrectLevel: number) => VendoredQrCode;
interface QrcodeTerminal {
  generate(input: string, opts: { small?: boolean }, cb: (output: string) => void): void;
}

/** Error correction of both renderings: qrcode-terminal's default (L), so both draw one matrix. */
const ERROR_CORRECTION_L = 1;
/** Light modules around the symbol that readers need to find it (the QR standard's quiet zone). */
const QUIET_ZONE = 4;
/** Pixels per module in the SVG's intrinsic size (scalable anyway). */
const MODULE_PX = 8;

/** A QR symbol: `modules[row][col]` is true for a dark module; square, 21..177 wide. */
export interface QrMatrix {
  size: number;
  modules: boolean[][];
}

/** Encodes `text` (bytes mode, level L, smallest version that fits) into its module matrix. */
export function qrMatrix(text: string): QrMatrix {
  const QRCode = requireCommonJs<VendoredQrCodeClass>("qrcode-terminal/vendor/QRCode/index.js");
  const code = new QRCode(-1, ERROR_CORRECTION_L);
  code.addData(text);
  code.make();
  const size = code.getModuleCount();
  const modules = Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) => code.isDark(row, col)),
  );
  return { size, modules };
}

/** The QR as an SVG document: a white square (quiet zone included) and one path of dark runs. */
export function qrSvg(text: string): string {
  const { size, modules } = qrMatrix(text);
  const side = size + QUIET_ZONE * 2;
  const runs: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x += 1;
      runs.push(`M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`);
    }
  });
  const px = side * MODULE_PX;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" ` +
    `viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/>` +
    `<path fill="#000" d="${runs.join("")}"/></svg>`
  );
}

/** The QR as a `data:image/svg+xml;base64,…` URL (an `<img src>` for the UI's login view). */
export function qrDataUrl(text: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(qrSvg(text), "utf8").toString("base64")}`;
}

/** The QR drawn for a terminal with qrcode-terminal's small mode (half-block characters). */
export function qrTerminal(text: string): string {
  const terminal = requireCommonJs<QrcodeTerminal>("qrcode-terminal");
  let drawn = "";
  terminal.generate(text, { small: true }, (output) => {
    drawn = output;
  });
  return drawn;
}
