// The `attachments` of `agent` and `chat.send` (OpenClaw's shape: `{type, mimeType, fileName,
// content}`, content = base64 of the file, or a `data:` URL) as images for the model. Only images
// are taken (JPEG, PNG, GIF, WebP, told by their bytes, not by the declared type); anything else,
// bad base64, more than MAX_ATTACHMENTS or one over MAX_IMAGE_BYTES is refused naming the item, so
// nothing a client sends is silently dropped.
import type { ImageContent } from "@mariozechner/pi-ai";

/** Largest decoded image (OpenClaw's `maxImageBytes`, 6 MiB). */
export const MAX_IMAGE_BYTES = 6_291_456;

/** Most attachments one turn takes. */
export const MAX_ATTACHMENTS = 10;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,/i;

/** The image type the first bytes say, or undefined for anything else. */
function sniffImageType(bytes: Buffer): string | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")))
    return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return "image/jpeg";
  const head = bytes.subarray(0, 12).toString("latin1");
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image/gif";
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

function describe(item: Record<string, unknown>, index: number): string {
  const name = typeof item.fileName === "string" && item.fileName ? ` (${item.fileName})` : "";
  return `attachments[${index}]${name}`;
}

function parseOne(raw: unknown, index: number): ImageContent | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return `attachments[${index}] must be an object {type, mimeType, fileName, content}`;
  const item = raw as Record<string, unknown>;
  const what = describe(item, index);
  if (typeof item.content !== "string" || item.content === "")
    return `${what}: content (the file as base64) is required`;
  const declared = typeof item.mimeType === "string" ? item.mimeType.toLowerCase() : undefined;
  const type = typeof item.type === "string" ? item.type : undefined;
  if (type !== undefined && type !== "image" && !declared?.startsWith("image/"))
    return `${what}: only images can be attached (type "${type}")`;
  const text = item.content.replace(DATA_URL, "").replace(/\s+/g, "");
  if (!BASE64.test(text) || text.length % 4 === 1) return `${what}: content is not valid base64`;
  const bytes = Buffer.from(text, "base64");
  if (bytes.length > MAX_IMAGE_BYTES)
    return `${what}: ${bytes.length} bytes is over the ${MAX_IMAGE_BYTES}-byte image limit`;
  const sniffed = sniffImageType(bytes);
  if (!sniffed)
    return `${what}: not a JPEG, PNG, GIF or WebP image${declared ? ` (declared ${declared})` : ""}`;
  return { type: "image", data: bytes.toString("base64"), mimeType: sniffed };
}

/** The images of a turn, or the message naming the first attachment that cannot be taken. */
export function parseAttachments(
  attachments: readonly unknown[] | undefined,
): { ok: true; images: ImageContent[] } | { ok: false; message: string } {
  if (!attachments || attachments.length === 0) return { ok: true, images: [] };
  if (attachments.length > MAX_ATTACHMENTS)
    return {
      ok: false,
      message: `${attachments.length} attachments: at most ${MAX_ATTACHMENTS} per message`,
    };
  const images: ImageContent[] = [];
  for (const [index, raw] of attachments.entries()) {
    const parsed = parseOne(raw, index);
    if (typeof parsed === "string") return { ok: false, message: parsed };
    images.push(parsed);
  }
  return { ok: true, images };
}
