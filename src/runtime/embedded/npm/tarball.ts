// A package tarball's files: gunzip with fflate (streamed, so a gzip bomb is stopped at a size cap), the tar read
// by modern-tar (ustar prefixes, PAX and GNU long names, which npm's own tarballs use for deep paths). Like npm, the
// first path segment (`package/` in current tarballs, anything in old ones) is dropped, and links, devices and
// paths that would leave the package folder are skipped.

import { Gunzip } from 'fflate';
import { unpackTar } from 'modern-tar';

/** `mode`: the permission bits the tarball gives the file, where it gives any. */
export type PackageFile = { path: string; data: Uint8Array; mode?: number };

/** Unpacked bytes one package may have; far above any real package, low enough to keep a bomb from filling memory. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

/** The files of a package tarball (gzipped or plain tar), paths relative to the package folder. */
export async function unpackTarball(tarball: Uint8Array): Promise<PackageFile[]> {
  const tar = isGzip(tarball) ? gunzipCapped(tarball, MAX_UNPACKED_BYTES) : tarball;
  const entries = await unpackTar(tar);
  const files: PackageFile[] = [];
  for (const entry of entries) {
    if ((entry.header.type ?? 'file') !== 'file' || !entry.data) continue;
    const path = packagePath(entry.header.name);
    if (path) files.push({ path, data: entry.data, mode: entry.header.mode });
  }
  return files;
}

/** The package's manifest from its unpacked files, or undefined when it has none that parses. */
export function packageJsonOf(files: PackageFile[]): Record<string, unknown> | undefined {
  const file = files.find((f) => f.path === 'package.json');
  if (!file) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(file.data));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `package/lib/x.js` -> `lib/x.js`; undefined for the top folder itself or a path that climbs out. */
function packagePath(name: string): string | undefined {
  const segments = name.replace(/\\/g, '/').split('/').slice(1);
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return undefined;
    kept.push(segment);
  }
  return kept.length > 0 ? kept.join('/') : undefined;
}

function isGzip(data: Uint8Array): boolean {
  return data.length > 2 && data[0] === 0x1f && data[1] === 0x8b;
}

function gunzipCapped(data: Uint8Array, cap: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const gunzip = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > cap) throw new Error(`it unpacks to more than ${cap / 1024 / 1024} MB`);
    chunks.push(chunk);
  });
  gunzip.push(data, true);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
