// Names of the files Conch downloads (session file, HTML export, workspace zip, patch): the session title as a slug
// plus the day of the download, e.g. "hello-sh-script-2026-11-30.conch.zip". A slug is lowercase letters, marks and
// digits of any script joined by single hyphens, so it holds no dot, slash, space, quote or control character that
// a file system or a shell could trip on, and it is never a path.

/** The longest slug, in characters (the date and extension come on top). */
export const MAX_SLUG_CHARS = 60;

/** `title` as a file-name slug of at most MAX_SLUG_CHARS characters, cut between words; '' when nothing is usable. */
export function slugify(title: string): string {
  const words =
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '') // Latin accents go (é → e); other scripts' marks stay part of their words
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if ([...next].length <= MAX_SLUG_CHARS) {
      slug = next;
      continue;
    }
    // One word longer than the limit is cut (by code point, so no surrogate pair is split); otherwise stop before it.
    if (!slug) slug = [...word].slice(0, MAX_SLUG_CHARS).join('');
    break;
  }
  return slug;
}

/** The local calendar day of `date` as YYYY-MM-DD. */
export function isoDay(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/**
 * A download name: `<slug of title>-<YYYY-MM-DD><extension>`, with `fallback` standing in for a title that gives no
 * slug (empty, or only punctuation).
 */
export function downloadName(title: string, extension: string, fallback: string, date: Date = new Date()): string {
  return `${slugify(title) || fallback}-${isoDay(date)}${extension}`;
}
