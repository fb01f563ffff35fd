// Images pasted or dropped into the prompt, read as base64 for the provider.
import type { ImageContent } from '../../ai/types';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image files among `files`, read as ImageContent; others are reported by name so the person knows. */
export async function readImages(files: Iterable<File>): Promise<{ images: ImageContent[]; rejected: string[] }> {
  const images: ImageContent[] = [];
  const rejected: string[] = [];
  for (const file of files) {
    if (!ACCEPTED.includes(file.type)) {
      rejected.push(`${file.name || 'file'}: only PNG, JPEG, GIF and WebP images can be attached`);
      continue;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      rejected.push(`${file.name || 'image'}: larger than 5 MB`);
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    images.push({ type: 'image', data: btoa(binary), mimeType: file.type });
  }
  return { images, rejected };
}
