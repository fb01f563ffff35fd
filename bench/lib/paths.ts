// Where the benches live and write.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Bench output (gitignored). */
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
