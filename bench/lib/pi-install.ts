// Pi's agent core for the loop bench, installed into a temporary folder (never into the project's dependencies) and
// kept there: a second run finds it at the pinned version and installs nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PI_VERSION = '1.6.0';
const PACKAGES = ['pi-agent-core', 'pi-ai', 'pi-schema'] as const;
type PiPackage = (typeof PACKAGES)[number];

/** The file URL of each package's ESM entry, or why Pi could not be installed. */
export type PiInstall = { ok: true; folder: string; entries: Record<PiPackage, string> } | { ok: false; reason: string };

/** Installs Pi's agent core and schema at PI_VERSION into `<tmpdir>/conch-bench-pi`, unless already there. */
export function installPi(folder = join(tmpdir(), 'conch-bench-pi')): PiInstall {
  if (!PACKAGES.every((name) => installedVersion(folder, name) === PI_VERSION)) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const specs = [`@earendil-works/pi-agent-core@${PI_VERSION}`, `@earendil-works/pi-schema@${PI_VERSION}`];
    const run = spawnSync(npm, ['install', '--prefix', folder, ...specs, '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], {
      encoding: 'utf8',
    });
    if (run.status !== 0) {
      const said = (run.stderr || run.stdout || run.error?.message || '').trim().split('\n').slice(-3).join(' / ');
      return { ok: false, reason: `npm install into ${folder} failed (${said || `exit ${run.status}`})` };
    }
    const wrong = PACKAGES.find((name) => installedVersion(folder, name) !== PI_VERSION);
    if (wrong) return { ok: false, reason: `npm installed @earendil-works/${wrong} ${installedVersion(folder, wrong) ?? '(none)'}, not ${PI_VERSION}` };
  }
  const entries = {} as Record<PiPackage, string>;
  for (const name of PACKAGES) {
    const entry = importEntry(folder, name);
    if (!entry) return { ok: false, reason: `@earendil-works/${name} in ${folder} has no ESM entry point` };
    entries[name] = entry;
  }
  return { ok: true, folder, entries };
}

function packageJson(folder: string, name: PiPackage): Record<string, unknown> | undefined {
  const file = join(folder, 'node_modules', '@earendil-works', name, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function installedVersion(folder: string, name: PiPackage): string | undefined {
  const version = packageJson(folder, name)?.version;
  return typeof version === 'string' ? version : undefined;
}

// The packages export only an "import" condition, which createRequire cannot resolve; read it from package.json.
function importEntry(folder: string, name: PiPackage): string | undefined {
  const exports = packageJson(folder, name)?.exports as Record<string, { import?: unknown } | undefined> | undefined;
  const entry = exports?.['.']?.import;
  if (typeof entry !== 'string') return undefined;
  return pathToFileURL(join(folder, 'node_modules', '@earendil-works', name, entry)).href;
}
