// One version of a package as install needs it, read from wherever it comes: the registry's abbreviated metadata,
// a lockfile entry, or a package.json. Everything from outside is checked here, field by field.

import { integrityOf } from './integrity';

export type Dependencies = Record<string, string>;

export type PackageVersion = {
  name: string;
  version: string;
  /** The tarball's URL. */
  resolved: string;
  /** The strongest hash to check the tarball against; undefined when the source gave none. */
  integrity?: string;
  dependencies: Dependencies;
  optionalDependencies: Dependencies;
  peerDependencies: Dependencies;
  /** Peer dependencies marked optional in peerDependenciesMeta: never installed for the peer's sake. */
  optionalPeers: string[];
  /** Dependencies shipped inside the tarball's own node_modules. */
  bundled: string[];
  hasInstallScript: boolean;
  license?: string;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  deprecated?: string;
};

/** The project's own package.json, as install and run read it. */
export type ProjectManifest = {
  name?: string;
  version?: string;
  dependencies: Dependencies;
  devDependencies: Dependencies;
  optionalDependencies: Dependencies;
  peerDependencies: Dependencies;
  scripts: Record<string, string>;
  /** The whole parsed object, kept so that saving changes only the dependency fields. */
  raw: Record<string, unknown>;
};

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A map of strings, with anything that is not a string dropped. */
export function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
  return out;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function optionalPeersOf(meta: unknown): string[] {
  if (!isObject(meta)) return [];
  return Object.entries(meta).filter(([, entry]) => isObject(entry) && entry.optional === true).map(([name]) => name);
}

/** A version object from the registry's metadata; undefined when it lacks a name, version or tarball. */
export function versionFromRegistry(raw: unknown): PackageVersion | undefined {
  if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.version !== 'string' || !isObject(raw.dist)) return undefined;
  const dist = raw.dist;
  if (typeof dist.tarball !== 'string') return undefined;
  const peerDependencies = stringMap(raw.peerDependencies);
  const scripts = stringMap(raw.scripts);
  return {
    name: raw.name,
    version: raw.version,
    resolved: dist.tarball,
    integrity: integrityOf({ integrity: optionalString(dist.integrity), shasum: optionalString(dist.shasum) }),
    dependencies: stringMap(raw.dependencies),
    optionalDependencies: stringMap(raw.optionalDependencies),
    peerDependencies,
    optionalPeers: optionalPeersOf(raw.peerDependenciesMeta),
    bundled: stringList(raw.bundleDependencies ?? raw.bundledDependencies) ?? [],
    hasInstallScript: raw.hasInstallScript === true || Boolean(scripts.preinstall || scripts.install || scripts.postinstall),
    license: optionalString(raw.license),
    engines: isObject(raw.engines) ? stringMap(raw.engines) : undefined,
    os: stringList(raw.os),
    cpu: stringList(raw.cpu),
    deprecated: optionalString(raw.deprecated),
  };
}

/** A package-lock.json `packages` entry at a node_modules location; undefined when it cannot be installed from. */
export function versionFromLockEntry(location: string, raw: unknown): PackageVersion | undefined {
  if (!isObject(raw) || typeof raw.version !== 'string' || typeof raw.resolved !== 'string') return undefined;
  const name = typeof raw.name === 'string' ? raw.name : nameAtLocation(location);
  if (!name) return undefined;
  return {
    name,
    version: raw.version,
    resolved: raw.resolved,
    integrity: integrityOf({ integrity: optionalString(raw.integrity) }),
    dependencies: stringMap(raw.dependencies),
    optionalDependencies: stringMap(raw.optionalDependencies),
    peerDependencies: stringMap(raw.peerDependencies),
    optionalPeers: optionalPeersOf(raw.peerDependenciesMeta),
    bundled: [],
    hasInstallScript: raw.hasInstallScript === true,
    license: optionalString(raw.license),
    engines: isObject(raw.engines) ? stringMap(raw.engines) : undefined,
    os: stringList(raw.os),
    cpu: stringList(raw.cpu),
    deprecated: optionalString(raw.deprecated),
  };
}

/** The project's package.json text, checked; throws a sentence when it is not a JSON object. */
export function parseProjectManifest(text: string): ProjectManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`package.json is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it and try again`);
  }
  if (!isObject(raw)) throw new Error('package.json must hold a JSON object; fix it and try again');
  return {
    name: optionalString(raw.name),
    version: optionalString(raw.version),
    dependencies: stringMap(raw.dependencies),
    devDependencies: stringMap(raw.devDependencies),
    optionalDependencies: stringMap(raw.optionalDependencies),
    peerDependencies: stringMap(raw.peerDependencies),
    scripts: stringMap(raw.scripts),
    raw,
  };
}

/** True for a name npm could publish (scoped or not; old names may have capitals): never a path that climbs out. */
export function isPackageName(name: string): boolean {
  return name.length <= 214 && /^(?:@[\w~-][\w.~-]*\/)?[\w~-][\w.~-]*$/.test(name);
}

/** True for a location made only of `node_modules/<package name>` steps. */
export function isModulesLocation(location: string): boolean {
  if (!location.startsWith('node_modules/')) return false;
  return location.split(/(?:^|\/)node_modules\//).slice(1).every(isPackageName);
}

/** The package name a `node_modules/…` location holds (`node_modules/a/node_modules/@s/b` -> `@s/b`). */
export function nameAtLocation(location: string): string | undefined {
  const cut = location.lastIndexOf('node_modules/');
  if (cut < 0) return undefined;
  return location.slice(cut + 'node_modules/'.length) || undefined;
}
