// Images picked in the Chat composer, read into chat.send's `attachments` shape (OpenClaw's
// `{type, mimeType, fileName, content}` with base64 content). The same limits as the gateway's
// (JPEG, PNG, GIF or WebP; at most 10, each at most 6 MiB) are checked here first, so a file the
// gateway would refuse is named before anything is sent.

/** Largest image the gateway takes (6 MiB). */
export const MAX_IMAGE_BYTES = 6_291_456;

/** Most images one message takes. */
export const MAX_ATTACHMENTS = 10;

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** One picked image, ready for chat.send. */
export interface PendingImage {
  fileName: string;
  mimeType: string;
  /** The bytes as base64. */
  content: string;
}

/** What picking files gave: the images taken, and a sentence per file left out. */
export interface PickedImages {
  images: PendingImage[];
  refused: string[];
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const step = 0x8000;
  for (let at = 0; at < bytes.length; at += step)
    binary += String.fromCharCode(...bytes.subarray(at, at + step));
  return btoa(binary);
}

/** Reads `files` on top of the `already` picked ones, within the gateway's limits. */
export async function readPickedImages(
  files: readonly File[],
  already: number,
): Promise<PickedImages> {
  const images: PendingImage[] = [];
  const refused: string[] = [];
  for (const file of files) {
    if (!IMAGE_TYPES.includes(file.type)) {
      refused.push(`${file.name}: only JPEG, PNG, GIF or WebP images can be attached`);
    } else if (file.size > MAX_IMAGE_BYTES) {
      refused.push(`${file.name}: over the 6 MiB image limit`);
    } else if (already + images.length >= MAX_ATTACHMENTS) {
      refused.push(`${file.name}: at most ${MAX_ATTACHMENTS} images per message`);
    } else {
      const bytes = new Uint8Array(await file.arrayBuffer());
      images.push({ fileName: file.name, mimeType: file.type, content: toBase64(bytes) });
    }
  }
  return { images, refused };
}

/** chat.send's `attachments` for the picked images. */
export function toAttachments(images: readonly PendingImage[]): Record<string, unknown>[] {
  return images.map((image) => ({
    type: "image",
    mimeType: image.mimeType,
    fileName: image.fileName,
    content: image.content,
  }));
}
