// The node_modules tree an install makes, built breadth first the way npm hoists: each dependency goes as high up
// the tree as it can without a different version of the same name in the way and without changing what an already
// placed package resolves to; when the version found from a dependent already satisfies it, it is reused. Versions
// come from `choose` (lockfile first, then the registry). Dependencies that are optional, and packages that cannot
// be installed here but were only wanted optionally, are skipped with a note instead of failing the install.

import { InstallError } from './install-error';
import { isPackageName, type Dependencies, type PackageVersion, type ProjectManifest } from './package-version';
import { satisfiesSpec } from './version-choice';

export type EdgeKind = 'prod' | 'dev' | 'optional' | 'peer';

export type TreeNode = {
  /** '' for the project, else e.g. `node_modules/a/node_modules/b`. */
  location: string;
  name: string;
  /** null for the project itself. */
  pkg: PackageVersion | null;
  parent: TreeNode | null;
  children: Map<string, TreeNode>;
  /** Reachable only through devDependencies / only through optional edges (npm's `dev` and `optional` flags). */
  dev: boolean;
  optional: boolean;
};

type Edge = { from: TreeNode; name: string; spec: string; kind: EdgeKind; target?: TreeNode };

export type ResolveOptions = {
  project: ProjectManifest;
  /** The version `spec` means for `name` (throws InstallError when none). */
  choose(name: string, spec: string, wantedBy: string): Promise<PackageVersion>;
  /** Why this version cannot be installed here (wrong os/cpu), or undefined. */
  unusable?(pkg: PackageVersion): string | undefined;
  /** Started as soon as a package is known to be needed, so metadata loads in parallel. */
  prefetch?(name: string): void;
  omitDev?: boolean;
  /** --legacy-peer-deps: peer dependencies are not installed. */
  skipPeers?: boolean;
};

export type ResolvedTree = { root: TreeNode; nodes: TreeNode[]; skipped: string[] };

/** Resolves the project's dependencies into a hoisted tree. */
export async function resolveTree(options: ResolveOptions): Promise<ResolvedTree> {
  const root: TreeNode = { location: '', name: options.project.name ?? 'project', pkg: null, parent: null, children: new Map(), dev: false, optional: false };
  const edges: Edge[] = [];
  const skipped: string[] = [];
  const queue: TreeNode[] = [root];
  while (queue.length > 0) {
    const node = queue.shift()!;
    const pending = edgesOf(node, options);
    for (const edge of pending) options.prefetch?.(edge.name);
    for (const edge of pending) {
      const start = edge.kind === 'peer' ? (node.parent ?? node) : node;
      const found = resolveFrom(start, edge.name);
      if (found?.pkg && satisfiesSpec(found.pkg.version, edge.spec)) {
        edge.target = found;
        edges.push(edge);
        continue;
      }
      const wantedBy = node.pkg ? `${node.pkg.name}@${node.pkg.version}` : 'package.json';
      let pkg: PackageVersion;
      try {
        if (!isPackageName(edge.name)) throw new InstallError(`"${edge.name}" (wanted by ${wantedBy}) is not a valid package name`);
        pkg = await options.choose(edge.name, edge.spec, wantedBy);
        const why = options.unusable?.(pkg);
        if (why) throw new InstallError(`${pkg.name}@${pkg.version} (wanted by ${wantedBy}) ${why}`);
      } catch (error) {
        if (edge.kind === 'optional' && error instanceof InstallError) {
          skipped.push(`${edge.name}@${edge.spec}: ${error.message}`);
          continue;
        }
        throw error;
      }
      if (found?.pkg && found.pkg.version === pkg.version) {
        edge.target = found; // a tag or a spec satisfiesSpec cannot read, that resolved to what is there
        edges.push(edge);
        continue;
      }
      const child = place(start, pkg, edges);
      edge.target = child;
      edges.push(edge);
      queue.push(child);
    }
  }
  const nodes = collect(root);
  markFlags(root, nodes, edges);
  return { root, nodes, skipped };
}

/** The node's outgoing dependencies in a fixed order: the project's first by kind, each kind by name. */
function edgesOf(node: TreeNode, options: ResolveOptions): Edge[] {
  const list: Edge[] = [];
  const add = (deps: Dependencies, kind: EdgeKind, except: Set<string>) => {
    for (const name of Object.keys(deps).sort()) if (!except.has(name)) list.push({ from: node, name, spec: deps[name], kind });
  };
  if (!node.pkg) {
    const project = options.project;
    const optional = new Set(Object.keys(project.optionalDependencies));
    add(project.dependencies, 'prod', optional);
    if (!options.omitDev) add(project.devDependencies, 'dev', new Set([...optional, ...Object.keys(project.dependencies)]));
    add(project.optionalDependencies, 'optional', new Set());
    return list;
  }
  const pkg = node.pkg;
  const bundled = new Set(pkg.bundled);
  const optional = new Set([...Object.keys(pkg.optionalDependencies), ...bundled]);
  add(pkg.dependencies, 'prod', optional);
  add(pkg.optionalDependencies, 'optional', bundled);
  if (!options.skipPeers) {
    const skip = new Set([...pkg.optionalPeers, ...Object.keys(pkg.dependencies), ...optional]);
    add(pkg.peerDependencies, 'peer', skip);
  }
  return list;
}

/** What `require(name)` finds from `node`: its own node_modules, then each folder above. */
function resolveFrom(node: TreeNode, name: string): TreeNode | undefined {
  for (let level: TreeNode | null = node; level; level = level.parent) {
    const child = level.children.get(name);
    if (child) return child;
  }
  return undefined;
}

/**
 * Puts `pkg` as high above `start` as it can go: not past a level that has another version of the name, nor at a
 * level under which an already resolved dependency would then find this copy instead of the one it was given.
 */
function place(start: TreeNode, pkg: PackageVersion, edges: Edge[]): TreeNode {
  let target = start;
  for (let level: TreeNode | null = start; level; level = level.parent) {
    if (level.children.has(pkg.name) || wouldShadow(level, pkg.name, edges)) break;
    target = level;
  }
  const location = `${target.location ? `${target.location}/` : ''}node_modules/${pkg.name}`;
  const child: TreeNode = { location, name: pkg.name, pkg, parent: target, children: new Map(), dev: false, optional: false };
  target.children.set(pkg.name, child);
  return child;
}

function wouldShadow(level: TreeNode, name: string, edges: Edge[]): boolean {
  return edges.some((edge) => edge.name === name && edge.target !== undefined && isWithin(edge.from, level) && !isWithin(edge.target, level));
}

/** True when `node` is `ancestor` or lies in its subtree. */
function isWithin(node: TreeNode, ancestor: TreeNode): boolean {
  for (let n: TreeNode | null = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

function collect(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (node: TreeNode) => {
    for (const child of node.children.values()) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out.sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
}

/** npm's flags: `dev` when no production path reaches a package, `optional` when only optional edges do. */
function markFlags(root: TreeNode, nodes: TreeNode[], edges: Edge[]): void {
  const reach = (kinds: Set<EdgeKind>, rootKinds: Set<EdgeKind>): Set<TreeNode> => {
    const seen = new Set<TreeNode>();
    const queue = edges.filter((e) => e.from === root && rootKinds.has(e.kind) && e.target).map((e) => e.target!);
    while (queue.length > 0) {
      const node = queue.shift()!;
      if (seen.has(node)) continue;
      seen.add(node);
      for (const edge of edges) if (edge.from === node && kinds.has(edge.kind) && edge.target) queue.push(edge.target);
    }
    return seen;
  };
  const strict = new Set<EdgeKind>(['prod', 'peer']);
  const prod = reach(strict, strict);
  const prodWithOptional = reach(new Set(['prod', 'peer', 'optional']), new Set(['prod', 'peer', 'optional']));
  const devStrict = reach(strict, new Set(['dev']));
  for (const node of nodes) {
    node.dev = !prodWithOptional.has(node);
    node.optional = !prod.has(node) && !devStrict.has(node);
  }
}
