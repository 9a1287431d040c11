import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { type ImagePayload, InvalidParamsError } from '@keel/runtime';

const mediaTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** Reads an image file into the spec's ImagePayload; an unknown type or missing file is a clear error. */
export async function loadImage(path: string): Promise<ImagePayload> {
  const mediaType = mediaTypes[extname(path).toLowerCase()];
  if (!mediaType) {
    throw new InvalidParamsError(`Unsupported image type: ${path} (use .png, .jpg, .jpeg, .gif or .webp)`);
  }
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new InvalidParamsError(
      `Cannot read image ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  return { data: data.toString('base64'), media_type: mediaType, filename: basename(path) };
}
