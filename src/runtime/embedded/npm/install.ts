// `npm install`, `npm ci` and the reinstall after a restore, in four steps: decide the tree (from the lockfile when
// it still matches package.json, else resolved against the registry with the locked versions preferred), fetch and
// check what is not installed yet, unpack it, and only then write node_modules, the bins and the lockfiles. Any
// failure before the last step leaves the workspace as it was. Lifecycle scripts are never run.

import type { IFileSystem } from 'just-bash';
import { binShim, binsOf } from './bin-links';
import { resolveTree, type TreeNode } from './dependency-tree';
import { InstallError } from './install-error';
import { installScriptsOf, nativeBuildReason } from './install-scripts';
import { HIDDEN_LOCKFILE, LOCKFILE, hiddenLockfileText, lockMismatch, lockedVersions, lockfileText, treeFromLockfile, type Lockfile } from './lockfile';
import { normalizeRegistry, type NpmEnvironment } from './environment';
import { writeNodeModules } from './node-modules-writer';
import { isObject, type JsonObject, type PackageVersion, type ProjectManifest } from './package-version';
import { isDirectory, isFile, readLockfile, readProject, readText } from './project-files';
import { RegistryClient } from './registry-client';
import { packageJsonOf, unpackTarball, type PackageFile } from './tarball';
import { chooseVersion, type VersionSource } from './version-choice';
import { applyPackageSpecs, removePackages, type SaveGroup } from './package-specs';

export type InstallMode = 'install' | 'ci' | 'restore';

export type InstallOptions = {
  mode: InstallMode;
  /** `npm install <specs>`: packages to add to package.json. */
  add?: string[];
  saveGroup?: SaveGroup;
  saveExact?: boolean;
  /** `npm uninstall <names>`. */
  remove?: string[];
  omitDev?: boolean;
  skipPeers?: boolean;
  offline?: boolean;
  /** false: package.json and package-lock.json are not written (--no-save). */
  save?: boolean;
  /** --registry: overrides the setting for this command. */
  registry?: string;
};

export type InstallContext = { fs: IFileSystem; root: string; environment: NpmEnvironment; signal?: AbortSignal };

export type InstallOutcome = {
  /** Progress and notes, one per line, then the summary line. */
  lines: string[];
  /** Packages in node_modules afterwards. */
  installed: number;
};

/** The embedded runtime's platform, as npm compares it with a package's `os` and `cpu`. */
const PLATFORM = { os: 'linux', cpu: 'wasm32' };
const FETCH_CONCURRENCY = 8;

type Unpacked = { node: TreeNode; files: PackageFile[]; packageJson: JsonObject };

/** Runs one install in the project at `context.root`; throws InstallError (workspace unchanged) when it cannot. */
export async function install(options: InstallOptions, context: InstallContext): Promise<InstallOutcome> {
  const started = Date.now();
  const { fs, root } = context;
  const lines: string[] = [];
  const registry = normalizeRegistryOrThrow(options.registry ?? (await context.environment.registry()));
  const client = new RegistryClient({ registry, cache: context.environment.cache, signal: context.signal, offline: options.offline });

  let project = await readProjectOrThrow(fs, root, options);
  const lock = await readLockOrThrow(fs, root, options.mode);
  const locked = lockedVersions(lock && lock.lockfileVersion >= 2 ? lock : undefined);
  const source: VersionSource = { locked, packument: (name) => client.packument(name) };

  if (options.add && options.add.length > 0) {
    project = await applyPackageSpecs(project, options.add, options.saveGroup ?? 'dependencies', options.saveExact === true, {
      locked: new Map(), // an explicitly named package means its newest matching version, not the locked one
      packument: source.packument,
    });
  }
  if (options.remove && options.remove.length > 0) project = removePackages(project, options.remove);
  const manifestChanged = Boolean(options.add?.length || options.remove?.length);

  // 1. The tree.
  let tree: { nodes: TreeNode[]; skipped: string[] };
  let fromLock = false;
  const mismatch = lock && lock.lockfileVersion >= 2 ? lockMismatch(lock, project) : 'there is no usable lockfile';
  if (options.mode !== 'install' || (lock && !mismatch && !manifestChanged)) {
    if (!lock) throw new InstallError(`${LOCKFILE} is missing: npm ${options.mode === 'ci' ? 'ci' : 'install'} needs one; run npm install to make it`);
    if (lock.lockfileVersion < 2) throw new InstallError(`${LOCKFILE} has lockfileVersion ${lock.lockfileVersion}, which has no package map; run npm install to upgrade it`);
    if (options.mode === 'ci' && mismatch) {
      throw new InstallError(`npm ci can only install when package.json and ${LOCKFILE} are in sync: ${mismatch}. Run npm install to update the lockfile`);
    }
    tree = { nodes: treeFromLockfile(lock, project.name ?? 'project').nodes, skipped: [] };
    fromLock = true;
  } else {
    tree = await resolveTree({
      project,
      choose: (name, spec, wantedBy) => chooseVersion(name, spec, source, wantedBy),
      unusable: unusableHere,
      prefetch: (name) => {
        if (!locked.has(name) && !options.offline) void client.packument(name).catch(() => undefined);
      },
      skipPeers: options.skipPeers,
    });
  }
  const wanted = tree.nodes.filter((node) => !(options.omitDev && node.dev));
  lines.push(resolvedLine(wanted.length, fromLock, client));

  // 2. What is already installed and can stay.
  const hidden = options.mode === 'ci' ? undefined : await readLockfile(fs, root, HIDDEN_LOCKFILE).catch(() => undefined);
  const installedAt = new Map((hidden?.packages ?? []).map((p) => [p.location, p]));
  const kept = new Set<string>();
  for (const node of wanted) {
    const there = installedAt.get(node.location);
    const parentKept = !node.parent?.pkg || kept.has(node.parent.location);
    if (there && parentKept && there.version === node.pkg!.version && there.integrity === node.pkg!.integrity && (await isFile(fs, `${root}/${node.location}/package.json`))) {
      kept.add(node.location);
    }
  }
  const toFetch = wanted.filter((node) => !kept.has(node.location));

  // 3. Fetch, check and unpack what is missing.
  const unpacked = await mapLimit(toFetch, FETCH_CONCURRENCY, (node) => fetchAndUnpack(node, client));
  if (toFetch.length > 0) lines.push(fetchedLine(toFetch.length, client));
  const skippedNative: string[] = [];
  const scriptNotes: string[] = [];
  const dropped = new Set<TreeNode>();
  for (const item of unpacked) {
    const scripts = installScriptsOf(item.packageJson, item.files);
    const native = nativeBuildReason(scripts);
    const label = `${item.node.pkg!.name}@${item.node.pkg!.version}`;
    if (native && item.node.optional) {
      skippedNative.push(`${label} ${native}`);
      dropped.add(item.node);
    } else if (native) {
      throw new InstallError(`${label} ${native}, which the embedded runtime cannot do; nothing was installed. Use the WebContainer runtime, or a pure-JavaScript package instead`);
    } else if (Object.keys(scripts).length > 0) {
      scriptNotes.push(`${label} (${Object.keys(scripts).join(', ')})`);
    }
  }
  const installed = wanted.filter((node) => !isUnder(node, dropped));
  const written = unpacked.filter((item) => installed.includes(item.node));
  const fileCount = written.reduce((sum, item) => sum + item.files.length, 0);
  if (written.length > 0) lines.push(`npm: unpacked ${plural(written.length, 'package')} (${plural(fileCount, 'file')}) into node_modules`);
  for (const note of [...tree.skipped, ...skippedNative]) lines.push(`npm warn skipped optional ${note}`);
  if (scriptNotes.length > 0) lines.push(`npm warn lifecycle scripts are not run in the embedded runtime; not run: ${scriptNotes.join(', ')}`);
  const deprecated = written.filter((item) => item.node.pkg!.deprecated).map((item) => `${item.node.pkg!.name}@${item.node.pkg!.version}`);
  if (deprecated.length > 0) lines.push(`npm warn deprecated ${deprecated.join(', ')}`);

  // 4. Write.
  const bins = await binsByLocation(fs, root, installed, written, lock, hidden);
  const shims = await shimsFor(fs, root, installed, bins, written);
  const lockNodes = tree.nodes.filter((node) => !isUnder(node, dropped));
  const files: { path: string; text: string }[] = [{ path: HIDDEN_LOCKFILE, text: hiddenLockfileText(project, installed, bins) }];
  const save = options.save !== false && options.mode === 'install';
  if (save) files.push({ path: LOCKFILE, text: lockfileText(project, lockNodes, bins) });
  if (save && manifestChanged) files.push({ path: 'package.json', text: `${JSON.stringify(project.raw, null, 2)}\n` });
  const wantedLocations = new Set(installed.map((node) => node.location));
  const remove = [...installedAt.keys()].filter((location) => !wantedLocations.has(location));
  for (const item of written) remove.push(item.node.location);
  await writeNodeModules(fs, root, {
    // A node_modules without npm's record of it was made by hand or by another tool.
    clean: options.mode === 'ci' || (hidden === undefined && (await isDirectory(fs, `${root}/node_modules`))),
    remove,
    packages: written.map((item) => ({ location: item.node.location, files: item.files })),
    shims,
    files,
  });

  const removedCount = [...installedAt.keys()].filter((location) => !wantedLocations.has(location)).length;
  lines.push(summaryLine(written.length - replacedCount(written, installedAt), removedCount, replacedCount(written, installedAt), installed.length, Date.now() - started));
  return { lines, installed: installed.length };
}

async function fetchAndUnpack(node: TreeNode, client: RegistryClient): Promise<Unpacked> {
  const pkg = node.pkg!;
  const { bytes, integrity } = await client.tarball(pkg);
  if (!pkg.integrity) node.pkg = { ...pkg, integrity };
  let files: PackageFile[];
  try {
    files = await unpackTarball(bytes);
  } catch (error) {
    throw new InstallError(`the tarball of ${pkg.name}@${pkg.version} could not be unpacked (${error instanceof Error ? error.message : String(error)}); nothing was installed`);
  }
  const packageJson = packageJsonOf(files);
  if (!packageJson) throw new InstallError(`the tarball of ${pkg.name}@${pkg.version} has no readable package.json; nothing was installed`);
  return { node, files, packageJson };
}

/** Every installed package's bins, by location: from the unpacked files, else from what the lockfiles recorded. */
async function binsByLocation(fs: IFileSystem, root: string, nodes: TreeNode[], written: Unpacked[], lock: Lockfile | undefined, hidden: Lockfile | undefined): Promise<Map<string, Record<string, string>>> {
  const bins = new Map<string, Record<string, string>>();
  const recorded = new Map([...(lock?.packages ?? []), ...(hidden?.packages ?? [])].map((p) => [p.location, p.bin]));
  for (const item of written) bins.set(item.node.location, binsOf(item.packageJson, item.files));
  for (const node of nodes) {
    if (bins.has(node.location)) continue;
    const known = recorded.get(node.location);
    if (known) {
      bins.set(node.location, known);
      continue;
    }
    const text = await readText(fs, `${root}/${node.location}/package.json`);
    try {
      const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
      if (isObject(parsed)) bins.set(node.location, binsOf(parsed, []));
    } catch {
      // a kept package whose package.json broke has no bins
    }
  }
  return bins;
}

/** node_modules/.bin: one shim per bin of the packages at the top of node_modules. */
async function shimsFor(fs: IFileSystem, root: string, nodes: TreeNode[], bins: Map<string, Record<string, string>>, written: Unpacked[]): Promise<Map<string, string>> {
  const shims = new Map<string, string>();
  const filesAt = new Map(written.map((item) => [item.node.location, item.files]));
  for (const node of nodes) {
    if (node.location !== `node_modules/${node.name}`) continue;
    for (const [name, target] of Object.entries(bins.get(node.location) ?? {})) {
      const file = filesAt.get(node.location)?.find((f) => f.path === target);
      const text = file ? new TextDecoder().decode(file.data.subarray(0, 200)) : ((await readText(fs, `${root}/${node.location}/${target}`)) ?? '');
      shims.set(name, binShim(node.location, target, text.split('\n', 1)[0]));
    }
  }
  return shims;
}

function unusableHere(pkg: PackageVersion): string | undefined {
  if (!allows(pkg.os, PLATFORM.os)) return `runs only on ${pkg.os!.join(', ')} (EBADPLATFORM)`;
  if (!allows(pkg.cpu, PLATFORM.cpu)) return `runs only on ${pkg.cpu!.join(', ')} processors (EBADPLATFORM)`;
  return undefined;
}

/** npm's os/cpu rule: any `!x` excludes x; a list of plain names must include the value. */
function allows(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((entry) => !entry.startsWith('!'));
  return positive.length === 0 || positive.includes(value) || positive.includes('any');
}

function isUnder(node: TreeNode, dropped: Set<TreeNode>): boolean {
  for (let n: TreeNode | null = node; n; n = n.parent) if (dropped.has(n)) return true;
  return false;
}

function replacedCount(written: Unpacked[], installedAt: Map<string, unknown>): number {
  return written.filter((item) => installedAt.has(item.node.location)).length;
}

async function readProjectOrThrow(fs: IFileSystem, root: string, options: InstallOptions): Promise<ProjectManifest> {
  let project: ProjectManifest | undefined;
  try {
    project = await readProject(fs, root);
  } catch (error) {
    throw new InstallError(error instanceof Error ? error.message : String(error));
  }
  if (project) return project;
  if (options.mode === 'install' && options.add && options.add.length > 0) {
    return { dependencies: {}, devDependencies: {}, optionalDependencies: {}, peerDependencies: {}, scripts: {}, raw: {} };
  }
  throw new InstallError(`there is no package.json in ${root}; run npm init -y first, or cd into the project`);
}

async function readLockOrThrow(fs: IFileSystem, root: string, mode: InstallMode): Promise<Lockfile | undefined> {
  try {
    return await readLockfile(fs, root);
  } catch (error) {
    if (mode === 'install') return undefined; // npm install makes a new one
    throw new InstallError(error instanceof Error ? error.message : String(error));
  }
}

function normalizeRegistryOrThrow(url: string): string {
  try {
    return normalizeRegistry(url);
  } catch (error) {
    throw new InstallError(error instanceof Error ? error.message : String(error));
  }
}

async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function resolvedLine(count: number, fromLock: boolean, client: RegistryClient): string {
  if (fromLock) return `npm: resolved ${plural(count, 'package')} from ${LOCKFILE}`;
  const { metadataFromNetwork, metadataFromCache } = client.counts;
  const sources = [
    metadataFromNetwork > 0 ? `metadata of ${metadataFromNetwork} from ${client.registry}` : '',
    metadataFromCache > 0 ? `${metadataFromCache} from the cache (offline)` : '',
  ].filter(Boolean);
  return `npm: resolved ${plural(count, 'package')}${sources.length > 0 ? ` (${sources.join(', ')})` : ''}`;
}

function fetchedLine(count: number, client: RegistryClient): string {
  const { tarballsFromCache, tarballsFromNetwork, bytesDownloaded } = client.counts;
  const parts = [
    tarballsFromNetwork > 0 ? `${tarballsFromNetwork} downloaded` : '',
    tarballsFromCache > 0 ? `${tarballsFromCache} from the cache` : '',
  ].filter(Boolean);
  return `npm: fetched ${plural(count, 'tarball')} (${parts.join(', ')}; ${formatBytes(bytesDownloaded)} from the network), integrity checked`;
}

function summaryLine(added: number, removed: number, changed: number, total: number, ms: number): string {
  const parts = [added > 0 ? `added ${plural(added, 'package')}` : '', removed > 0 ? `removed ${plural(removed, 'package')}` : '', changed > 0 ? `changed ${plural(changed, 'package')}` : ''].filter(Boolean);
  const took = `${(ms / 1000).toFixed(1)}s`;
  if (parts.length === 0) return `up to date: ${plural(total, 'package')} in node_modules (${took})`;
  return `${parts.join(', ')} in ${took}; ${plural(total, 'package')} in node_modules`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
