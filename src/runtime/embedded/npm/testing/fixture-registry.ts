// A local npm registry for tests, the bench and the e2e suite: it serves the real tarballs checked in beside this
// file (registry/*.tgz, as `npm pack` fetched them from the public registry) with abbreviated metadata made from
// their own package.json, plus packages a test makes up (a native addon, an install script). CORS is open, as the
// public registry's is, so the built app can use it from the browser. It can also corrupt a tarball, to test
// integrity checks, and it logs every request, to prove an install did not use the network.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'fflate';
import { packTar } from 'modern-tar';
import { packageJsonOf, unpackTarball } from '../tarball';

const FIXTURE_DIR = new URL('./registry/', import.meta.url);

type Published = { manifest: Record<string, unknown>; tarball: Uint8Array; fileName: string };

export type FixtureRegistry = {
  /** Base URL, ending in a slash (what the npm registry setting takes). */
  readonly url: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  /** Serve this version's tarball with one byte changed (its metadata keeps the real integrity); returns the undo. */
  corrupt(name: string, version: string): () => void;
  /** Publishes a made-up package: `files` are its contents besides package.json. */
  publish(manifest: Record<string, unknown> & { name: string; version: string }, files?: Record<string, string>): Promise<void>;
  /** Every package and version the registry serves, as `name@version`. */
  packages(): string[];
  close(): Promise<void>;
};

export type FixtureRegistryOptions = {
  /** Default 0: any free port (on 127.0.0.1). */
  port?: number;
  /** Added before every answer, to play a registry across the internet (the bench). */
  latencyMs?: number;
  /** More folders of real tarballs served beside registry/ (the compat bench's corpus). */
  folders?: URL[];
};

/** Starts the registry. */
export async function startFixtureRegistry(options: FixtureRegistryOptions = {}): Promise<FixtureRegistry> {
  const packages = new Map<string, Map<string, Published>>();
  const corrupted = new Set<string>();
  const requests: string[] = [];
  const add = (published: Published) => {
    const name = String(published.manifest.name);
    const versions = packages.get(name) ?? new Map<string, Published>();
    versions.set(String(published.manifest.version), published);
    packages.set(name, versions);
  };
  for (const folder of [FIXTURE_DIR, ...(options.folders ?? [])]) {
    for (const fileName of readdirSync(folder).filter((f) => f.endsWith('.tgz')).sort()) {
      const tarball = new Uint8Array(readFileSync(new URL(fileName, folder)));
      const manifest = packageJsonOf(await unpackTarball(tarball));
      if (!manifest) throw new Error(`fixture ${fileName} has no package.json`);
      add({ manifest, tarball, fileName });
    }
  }

  let base = '';
  const server: Server = createServer((request, response) => {
    if (options.latencyMs) setTimeout(() => answer(request, response), options.latencyMs);
    else answer(request, response);
  });
  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname);
    requests.push(path);
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', '*');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const tarball = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
    if (tarball) {
      const published = [...(packages.get(tarball[1])?.values() ?? [])].find((p) => p.fileName === tarball[2]);
      if (!published) return void response.writeHead(404).end('not found');
      let bytes = published.tarball;
      if (corrupted.has(`${tarball[1]}@${String(published.manifest.version)}`)) {
        bytes = bytes.slice();
        bytes[bytes.length - 10] ^= 0xff;
      }
      return void response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length }).end(bytes);
    }
    const versions = packages.get(path.slice(1));
    if (!versions) return void response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"Not found"}');
    const body = JSON.stringify(packument(path.slice(1), versions, base));
    response.writeHead(200, { 'Content-Type': 'application/vnd.npm.install-v1+json' }).end(body);
  };
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  return {
    url: base,
    requests,
    corrupt: (name, version) => {
      corrupted.add(`${name}@${version}`);
      return () => void corrupted.delete(`${name}@${version}`);
    },
    publish: async (manifest, files = {}) => {
      const entries = [['package.json', JSON.stringify(manifest, null, 2)], ...Object.entries(files)].map(([name, text]) => {
        const body = new TextEncoder().encode(text);
        return { header: { name: `package/${name}`, size: body.length, type: 'file' as const, mode: 0o644 }, body };
      });
      const tarball = gzipSync(await packTar(entries));
      add({ manifest, tarball, fileName: `${manifest.name.split('/').pop()}-${manifest.version}.tgz` });
    },
    packages: () => [...packages].flatMap(([name, versions]) => [...versions.keys()].map((v) => `${name}@${v}`)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Abbreviated metadata, as the registry answers `Accept: application/vnd.npm.install-v1+json`. */
function packument(name: string, versions: Map<string, Published>, base: string): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [version, { manifest, tarball, fileName }] of versions) {
    const pick = (key: string) => (manifest[key] === undefined ? {} : { [key]: manifest[key] });
    const scripts = (manifest.scripts ?? {}) as Record<string, string>;
    out[version] = {
      name,
      version,
      ...pick('dependencies'),
      ...pick('optionalDependencies'),
      ...pick('peerDependencies'),
      ...pick('peerDependenciesMeta'),
      ...pick('bundleDependencies'),
      ...pick('bin'),
      ...pick('directories'),
      ...pick('engines'),
      ...pick('os'),
      ...pick('cpu'),
      ...pick('deprecated'),
      ...(scripts.preinstall || scripts.install || scripts.postinstall ? { hasInstallScript: true } : {}),
      dist: {
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        tarball: `${base}${name}/-/${fileName}`,
      },
    };
  }
  const latest = [...versions.keys()].sort(compareVersions).pop()!;
  return { name, 'dist-tags': { latest }, versions: out };
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}
