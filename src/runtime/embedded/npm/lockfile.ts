// package-lock.json, lockfileVersion 3 as npm 7+ writes it (version 2 is read the same way: it carries the same
// `packages` map). Read: the locked tree, whether it still matches package.json, and the versions install may
// reuse. Written: the resolved tree, and the same map without the project as node_modules/.package-lock.json (npm's
// "hidden lockfile": what is installed, so the next install knows what it can keep).

import type { TreeNode } from './dependency-tree';
import { isModulesLocation, isObject, stringMap, versionFromLockEntry, type Dependencies, type JsonObject, type PackageVersion, type ProjectManifest } from './package-version';
import { satisfiesSpec } from './version-choice';

export const LOCKFILE = 'package-lock.json';
export const HIDDEN_LOCKFILE = 'node_modules/.package-lock.json';

export type LockedPackage = PackageVersion & { location: string; dev: boolean; optional: boolean; bin?: Record<string, string> };

export type Lockfile = {
  /** The lockfile's own version; 1 cannot be installed from (it has no `packages` map). */
  lockfileVersion: number;
  /** The project's dependency ranges as recorded (the `""` entry). */
  root: { dependencies: Dependencies; devDependencies: Dependencies; optionalDependencies: Dependencies };
  packages: LockedPackage[];
};

/** A lockfile's text, read; throws a sentence when it is not a lockfile. */
export function parseLockfile(text: string, fileName = LOCKFILE): Lockfile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${fileName} is not valid JSON; delete it and run npm install to make a new one`);
  }
  if (!isObject(raw)) throw new Error(`${fileName} is not a lockfile; delete it and run npm install to make a new one`);
  const lockfileVersion = typeof raw.lockfileVersion === 'number' ? raw.lockfileVersion : 1;
  const packages = isObject(raw.packages) ? raw.packages : {};
  const rootEntry = isObject(packages['']) ? packages[''] : {};
  const locked: LockedPackage[] = [];
  for (const [location, entry] of Object.entries(packages)) {
    if (!isModulesLocation(location) || !isObject(entry)) continue; // the project, workspaces, or a path that climbs out
    const pkg = versionFromLockEntry(location, entry);
    if (!pkg) continue;
    locked.push({
      ...pkg,
      location,
      dev: entry.dev === true || entry.devOptional === true,
      optional: entry.optional === true || entry.devOptional === true,
      bin: isObject(entry.bin) ? stringMap(entry.bin) : undefined,
    });
  }
  return {
    lockfileVersion,
    root: {
      dependencies: stringMap(rootEntry.dependencies),
      devDependencies: stringMap(rootEntry.devDependencies),
      optionalDependencies: stringMap(rootEntry.optionalDependencies),
    },
    packages: locked,
  };
}

/** Why the lockfile does not describe package.json's dependencies, or undefined when it does (npm ci's check). */
export function lockMismatch(lock: Lockfile, project: ProjectManifest): string | undefined {
  const atRoot = new Map(lock.packages.filter((p) => p.location === `node_modules/${p.name}`).map((p) => [p.name, p]));
  const groups = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;
  for (const group of groups) {
    for (const [name, spec] of Object.entries(project[group])) {
      const locked = atRoot.get(name);
      if (lock.root[group][name] !== spec && !(locked && satisfiesSpec(locked.version, spec))) {
        return `package.json wants ${name}@${spec}, which package-lock.json does not have`;
      }
      if (!locked && group !== 'optionalDependencies') return `package-lock.json has no entry for ${name}`;
    }
    for (const name of Object.keys(lock.root[group])) {
      if (!(name in project[group])) return `package-lock.json still lists ${name}, which package.json no longer has`;
    }
  }
  return undefined;
}

/** The locked packages as a tree (parents by location), with the flags the lockfile gives. */
export function treeFromLockfile(lock: Lockfile, projectName: string): { root: TreeNode; nodes: TreeNode[] } {
  const root: TreeNode = { location: '', name: projectName, pkg: null, parent: null, children: new Map(), dev: false, optional: false };
  const byLocation = new Map<string, TreeNode>([['', root]]);
  const nodes: TreeNode[] = [];
  const ordered = [...lock.packages].sort((a, b) => depth(a.location) - depth(b.location) || compare(a.location, b.location));
  for (const pkg of ordered) {
    const cut = pkg.location.lastIndexOf('/node_modules/');
    const parent = byLocation.get(cut < 0 ? '' : pkg.location.slice(0, cut));
    if (!parent) continue; // an entry whose parent is not installed cannot be reached either
    const { location, dev, optional, bin: _bin, ...version } = pkg;
    const node: TreeNode = { location, name: pkg.name, pkg: version, parent, children: new Map(), dev, optional };
    parent.children.set(node.name, node);
    byLocation.set(location, node);
    nodes.push(node);
  }
  return { root, nodes: nodes.sort((a, b) => compare(a.location, b.location)) };
}

/** The versions a lockfile already has, by name, for version-choice to prefer. */
export function lockedVersions(lock: Lockfile | undefined): Map<string, PackageVersion[]> {
  const out = new Map<string, PackageVersion[]>();
  for (const pkg of lock?.packages ?? []) {
    const list = out.get(pkg.name) ?? [];
    if (!list.some((p) => p.version === pkg.version)) list.push(pkg);
    out.set(pkg.name, list);
  }
  return out;
}

/** package-lock.json for the project and its resolved tree (bins by location, as the packages declare them). */
export function lockfileText(project: ProjectManifest, nodes: TreeNode[], bins: Map<string, Record<string, string>>): string {
  const rootEntry: JsonObject = {};
  if (project.name) rootEntry.name = project.name;
  if (project.version) rootEntry.version = project.version;
  if (typeof project.raw.license === 'string') rootEntry.license = project.raw.license;
  for (const group of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    if (Object.keys(project[group]).length > 0) rootEntry[group] = project[group];
  }
  const packages: JsonObject = { '': rootEntry, ...packageEntries(nodes, bins) };
  const lock: JsonObject = {};
  if (project.name) lock.name = project.name;
  if (project.version) lock.version = project.version;
  Object.assign(lock, { lockfileVersion: 3, requires: true, packages });
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** node_modules/.package-lock.json: what is installed, without the project. */
export function hiddenLockfileText(project: ProjectManifest, nodes: TreeNode[], bins: Map<string, Record<string, string>>): string {
  const lock: JsonObject = {};
  if (project.name) lock.name = project.name;
  if (project.version) lock.version = project.version;
  Object.assign(lock, { lockfileVersion: 3, requires: true, packages: packageEntries(nodes, bins) });
  return `${JSON.stringify(lock, null, 2)}\n`;
}

function packageEntries(nodes: TreeNode[], bins: Map<string, Record<string, string>>): JsonObject {
  const entries: JsonObject = {};
  for (const node of [...nodes].sort((a, b) => compare(a.location, b.location))) {
    const pkg = node.pkg!;
    const entry: JsonObject = { version: pkg.version, resolved: pkg.resolved };
    if (pkg.integrity) entry.integrity = pkg.integrity;
    if (node.location.endsWith(`node_modules/${pkg.name}`) === false) entry.name = pkg.name;
    if (node.dev && node.optional) entry.devOptional = true;
    else if (node.dev) entry.dev = true;
    else if (node.optional) entry.optional = true;
    if (pkg.hasInstallScript) entry.hasInstallScript = true;
    if (pkg.license) entry.license = pkg.license;
    if (Object.keys(pkg.dependencies).length > 0) entry.dependencies = pkg.dependencies;
    if (Object.keys(pkg.optionalDependencies).length > 0) entry.optionalDependencies = pkg.optionalDependencies;
    if (Object.keys(pkg.peerDependencies).length > 0) entry.peerDependencies = pkg.peerDependencies;
    if (pkg.optionalPeers.length > 0) entry.peerDependenciesMeta = Object.fromEntries(pkg.optionalPeers.map((n) => [n, { optional: true }]));
    const bin = bins.get(node.location);
    if (bin && Object.keys(bin).length > 0) entry.bin = bin;
    if (pkg.engines && Object.keys(pkg.engines).length > 0) entry.engines = pkg.engines;
    if (pkg.os) entry.os = pkg.os;
    if (pkg.cpu) entry.cpu = pkg.cpu;
    if (pkg.deprecated) entry.deprecated = pkg.deprecated;
    entries[node.location] = entry;
  }
  return entries;
}

function depth(location: string): number {
  return location.split('/node_modules/').length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
