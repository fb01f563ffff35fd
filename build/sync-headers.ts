// Writes the static hosts' header files from the one source of Conch's cross-origin isolation headers.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { netlifyHeadersFile, vercelConfigFile } from '../src/runtime/cross-origin-isolation';

const root = fileURLToPath(new URL('..', import.meta.url));
writeFileSync(`${root}public/_headers`, netlifyHeadersFile());
writeFileSync(`${root}vercel.json`, vercelConfigFile());
console.log('Wrote public/_headers and vercel.json from src/runtime/cross-origin-isolation.ts');
