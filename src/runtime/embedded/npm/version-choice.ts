// Which version a dependency spec means, as npm decides it: a version the lockfile already has when it satisfies the
// spec (no network needed), else from the registry's metadata: the `latest` tag when it satisfies, else the highest
// matching version; a spec that names a tag means that tag. Specs npm resolves elsewhere (git, files, URLs,
// aliases) are refused with a line saying so.

import maxSatisfying from 'semver/ranges/max-satisfying';
import validRange from 'semver/ranges/valid';
import satisfies from 'semver/functions/satisfies';
import { InstallError } from './install-error';
import type { PackageVersion } from './package-version';
import type { Packument } from './registry-client';

const LOOSE = { loose: true } as const;

export type VersionSource = {
  /** Versions already locked (package-lock.json), by package name. */
  locked: Map<string, PackageVersion[]>;
  packument(name: string): Promise<Packument>;
};

/** The version of `name` that `spec` resolves to. Throws an InstallError naming the dependency when none does. */
export async function chooseVersion(name: string, spec: string, source: VersionSource, wantedBy: string): Promise<PackageVersion> {
  const range = registrySpec(name, spec, wantedBy);
  const fromLock = bestOf(source.locked.get(name) ?? [], range);
  if (fromLock) return fromLock;
  const packument = await source.packument(name);
  const tagged = packument.distTags[range];
  if (tagged !== undefined && validRange(range, LOOSE) === null) {
    const version = packument.versions.get(tagged);
    if (version) return version;
  }
  const latest = packument.versions.get(packument.distTags.latest ?? '');
  if (latest && satisfies(latest.version, range, LOOSE)) return latest;
  const best = maxSatisfying([...packument.versions.keys()], range, LOOSE);
  if (best) return packument.versions.get(best)!;
  const available = [...packument.versions.keys()].slice(-6).join(', ');
  throw new InstallError(
    `No matching version of ${name} for "${spec}" (wanted by ${wantedBy}); the registry has ${available || 'no versions'}`,
  );
}

/** True when `version` satisfies `spec` as npm reads it ('' and 'latest'-like tags accept anything already there). */
export function satisfiesSpec(version: string, spec: string): boolean {
  const range = spec.trim() === '' ? '*' : spec;
  if (validRange(range, LOOSE) === null) return false; // a tag: only the registry can say
  return satisfies(version, range, LOOSE);
}

/** The registry range of a spec, or an InstallError for the kinds of spec only real npm can fetch. */
function registrySpec(name: string, spec: string, wantedBy: string): string {
  const trimmed = spec.trim();
  const kind = unsupportedKind(trimmed);
  if (kind) {
    throw new InstallError(
      `${name}@${trimmed} (wanted by ${wantedBy}) is a ${kind}; the embedded npm installs from the registry only. ` +
        'Use a version range, or the WebContainer runtime',
    );
  }
  return trimmed === '' ? '*' : trimmed;
}

function unsupportedKind(spec: string): string | undefined {
  if (spec.startsWith('npm:')) return 'package alias (npm:)';
  if (/^(file|link|portal|workspace):/.test(spec)) return 'local path';
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/.test(spec) || /\.git(#.*)?$/.test(spec)) return 'git dependency';
  if (/^https?:/.test(spec)) return 'tarball URL';
  if (/^[^@\s/][^\s/]*\/[^\s/]+(#.*)?$/.test(spec) && validRange(spec, LOOSE) === null) return 'GitHub dependency (user/repo)';
  if (/^(\.{1,2}\/|\/|~\/)/.test(spec)) return 'local path';
  return undefined;
}

function bestOf(candidates: PackageVersion[], range: string): PackageVersion | undefined {
  if (validRange(range, LOOSE) === null) return undefined;
  const best = maxSatisfying(candidates.map((c) => c.version), range, LOOSE);
  return best === null ? undefined : candidates.find((c) => c.version === best);
}
