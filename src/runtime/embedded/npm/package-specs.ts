// `npm install <spec>…` and `npm uninstall <name>…` as changes to package.json: a spec (`tape`, `tape@^4`,
// `@scope/pkg@latest`) is resolved to a version and saved the way npm saves it (`^version` for a tag or an exact
// version, the range as written otherwise, the version itself with --save-exact), in one dependency group only.

import validRange from 'semver/ranges/valid';
import valid from 'semver/functions/valid';
import { InstallError } from './install-error';
import { isPackageName, type ProjectManifest } from './package-version';
import { chooseVersion, type VersionSource } from './version-choice';

export type SaveGroup = 'dependencies' | 'devDependencies' | 'optionalDependencies';
const GROUPS: SaveGroup[] = ['dependencies', 'devDependencies', 'optionalDependencies'];

/** `name@spec` split; the spec is '' when none was given. */
export function parsePackageSpec(text: string): { name: string; spec: string } {
  const at = text.indexOf('@', text.startsWith('@') ? 1 : 0);
  const name = at < 0 ? text : text.slice(0, at);
  const spec = at < 0 ? '' : text.slice(at + 1);
  if (!isPackageName(name)) {
    throw new InstallError(`"${text}" is not a package name npm can install from a registry (e.g. tape, tape@^5, @scope/name)`);
  }
  return { name, spec };
}

/** The project with each spec resolved and saved into `group` (and taken out of the others). */
export async function applyPackageSpecs(project: ProjectManifest, specs: string[], group: SaveGroup, exact: boolean, source: VersionSource): Promise<ProjectManifest> {
  const next = copyGroups(project);
  for (const text of specs) {
    const { name, spec } = parsePackageSpec(text);
    const version = await chooseVersion(name, spec || 'latest', source, 'the command line');
    for (const other of GROUPS) delete next[other][name];
    next[group][name] = exact ? version.version : savedRange(spec, version.version);
  }
  return withRaw(next);
}

/** The project without `names` in any dependency group. */
export function removePackages(project: ProjectManifest, names: string[]): ProjectManifest {
  const next = copyGroups(project);
  for (const name of names) for (const group of GROUPS) delete next[group][name];
  return withRaw(next);
}

function savedRange(spec: string, version: string): string {
  if (spec === '' || valid(spec) !== null || validRange(spec) === null) return `^${version}`;
  return spec;
}

function copyGroups(project: ProjectManifest): ProjectManifest {
  return {
    ...project,
    dependencies: { ...project.dependencies },
    devDependencies: { ...project.devDependencies },
    optionalDependencies: { ...project.optionalDependencies },
  };
}

/** package.json's object with the dependency groups written back in place (empty ones dropped), keys sorted. */
function withRaw(project: ProjectManifest): ProjectManifest {
  const raw: Record<string, unknown> = { ...project.raw };
  for (const group of GROUPS) {
    const entries = Object.entries(project[group]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length > 0) raw[group] = Object.fromEntries(entries);
    else delete raw[group];
  }
  return { ...project, raw };
}
