// The initial-bundle figure: JavaScript the page loads before it can do anything (entry chunk plus its static
// imports), gzipped, against the 150 kB budget, and the largest chunks loaded on demand. Builds into
// bench/results/dist when the sources changed since the last bench build. Prints figures; asserts nothing.
import { formatBundleReport } from '../build/bundle-report';
import { ensureAppBuild } from './lib/app-build';

const started = performance.now();
const { report, rebuilt } = await ensureAppBuild();
console.log(rebuilt ? `built the app in ${((performance.now() - started) / 1000).toFixed(1)} s` : 'using the fresh bench build');
console.log(formatBundleReport(report));
