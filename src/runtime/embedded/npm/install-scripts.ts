// What a package would run at install time. The embedded runtime runs no lifecycle scripts; a package whose
// scripts only print or tidy still works without them, but one that builds native code (node-gyp, prebuilt
// binaries) cannot work here at all, and the install says so instead of leaving a package that fails on require.

import { isObject, stringMap, type JsonObject } from './package-version';
import type { PackageFile } from './tarball';

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;
const NATIVE_TOOLS = /\b(node-gyp|node-gyp-build|prebuild-install|node-pre-gyp|cmake-js|napi-build|neon)\b/;

/** The package's install-time scripts by name (npm adds `node-gyp rebuild` as `install` for a binding.gyp). */
export function installScriptsOf(packageJson: JsonObject, files: PackageFile[]): Record<string, string> {
  const scripts = isObject(packageJson.scripts) ? stringMap(packageJson.scripts) : {};
  const found: Record<string, string> = {};
  for (const name of INSTALL_SCRIPTS) if (scripts[name]) found[name] = scripts[name];
  const hasGyp = packageJson.gypfile === true || files.some((file) => file.path === 'binding.gyp');
  if (hasGyp && !found.install && !found.preinstall) found.install = 'node-gyp rebuild';
  return found;
}

/** Why the package needs a native build, or undefined when it needs none. */
export function nativeBuildReason(scripts: Record<string, string>): string | undefined {
  for (const [name, script] of Object.entries(scripts)) {
    if (NATIVE_TOOLS.test(script)) return `needs a native build (its ${name} script runs \`${script}\`)`;
  }
  return undefined;
}
