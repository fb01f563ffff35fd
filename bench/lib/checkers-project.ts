// A realistic 50-file TypeScript project for the checkers bench: a small inventory library (models, services,
// utilities, tests of its own) with a tsconfig.json, an eslint.config.js and a .prettierrc, and a few deliberate
// findings so that each tool's verdict is not trivially "all clean": two type errors, some lint problems (unused
// variables, `let` never reassigned, `==`) and a handful of files prettier would reformat.

const MODULE_COUNT = 44;

/** The project's files, path -> content, always the same for the same build of this file. */
export function checkersProject(): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'inventory', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    'tsconfig.json': TSCONFIG,
    '.prettierrc': `${JSON.stringify({ singleQuote: true, printWidth: 100, trailingComma: 'all' }, null, 2)}\n`,
    '.prettierignore': 'node_modules\npackage-lock.json\n',
    'eslint.config.js': ESLINT_CONFIG,
    'src/index.ts': indexFile(),
    'src/types.ts': TYPES_FILE,
    'src/errors.ts': ERRORS_FILE,
    'src/money.ts': MONEY_FILE,
    'src/ids.ts': IDS_FILE,
  };
  for (let i = 0; i < MODULE_COUNT; i++) files[`src/${folderOf(i)}/${nameOf(i)}.ts`] = moduleFile(i);
  files['src/report.ts'] = REPORT_FILE;
  return files;
}

/** The number of files under src/ (for the bench's headline). */
export const SOURCE_FILES = MODULE_COUNT + 6;

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "lib": ["ES2022"],
    "types": []
  },
  "include": ["src"]
}
`;

const ESLINT_CONFIG = `import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      eqeqeq: 'error',
      'prefer-const': 'error',
    },
  },
);
`;

const TYPES_FILE = `export type Id = string & { readonly brand: 'Id' };

export interface Item {
  id: Id;
  name: string;
  priceCents: number;
  quantity: number;
  tags: readonly string[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T>(error: string): Result<T> {
  return { ok: false, error };
}
`;

const ERRORS_FILE = `export class InventoryError extends Error {
  constructor(
    message: string,
    readonly code: 'missing' | 'invalid' | 'conflict',
  ) {
    super(message);
    this.name = 'InventoryError';
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? \`\${error.name}: \${error.message}\` : String(error);
}
`;

const MONEY_FILE = `export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return \`\${sign}$\${Math.floor(abs / 100)}.\${String(abs % 100).padStart(2, '0')}\`;
}

export function sumCents(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
`;

const IDS_FILE = `import type { Id } from './types';

let counter = 0;

export function nextId(prefix: string): Id {
  counter += 1;
  return \`\${prefix}-\${counter.toString(36)}\` as Id;
}

export function isId(value: unknown): value is Id {
  return typeof value === 'string' && /^[a-z]+-[0-9a-z]+$/.test(value);
}
`;

const REPORT_FILE = `import { formatCents } from './money';
import type { Item } from './types';

export function reportLine(item: Item): string {
  return \`\${item.name.padEnd(20)} \${formatCents(item.priceCents * item.quantity)}\`;
}

// A deliberate type error: a count where a string is declared.
export function reportTitle(items: readonly Item[]): string {
  const title: string = items.length;
  return title;
}
`;

function folderOf(i: number): string {
  return ['catalog', 'orders', 'stock', 'pricing'][i % 4];
}

function nameOf(i: number): string {
  return `${['shelf', 'basket', 'ledger', 'rule', 'batch', 'label', 'crate', 'tally', 'quote', 'parcel', 'bin'][i % 11]}-${i}`;
}

function className(i: number): string {
  const base = nameOf(i).split('-')[0];
  return `${base[0].toUpperCase()}${base.slice(1)}${i}`;
}

function indexFile(): string {
  const lines = [];
  for (let i = 0; i < MODULE_COUNT; i++) lines.push(`export { ${className(i)} } from './${folderOf(i)}/${nameOf(i)}';`);
  lines.push("export { reportLine, reportTitle } from './report';");
  return `${lines.join('\n')}\n`;
}

/** One service module; a few carry the deliberate findings (chosen by index, so they are stable). */
function moduleFile(i: number): string {
  const name = className(i);
  const previous = i > 0 ? `import { ${className(i - 1)} } from '../${folderOf(i - 1)}/${nameOf(i - 1)}';\n` : '';
  const lintUnused = i % 9 === 3 ? `\nconst unused${i} = ${i};\n` : '';
  const lintLet = i % 7 === 5 ? 'let' : 'const';
  const lintEq = i % 10 === 8 ? '==' : '===';
  const typeError = i === 17 ? `\n  broken(): number {\n    return this.items.map((item) => item.name);\n  }\n` : '';
  const source = `import { InventoryError } from '../errors';
import { nextId } from '../ids';
import { formatCents, sumCents } from '../money';
import { fail, ok, type Item, type Result } from '../types';
${previous}${lintUnused}
/** ${name}: keeps items of one kind and answers questions about them. */
export class ${name} {
  private readonly items: Item[] = [];
${i > 0 ? `  private readonly upstream = new ${className(i - 1)}();\n` : ''}
  add(name: string, priceCents: number, quantity = 1, tags: readonly string[] = []): Result<Item> {
    if (!name.trim()) return fail('a name is required');
    if (!Number.isInteger(priceCents) || priceCents < 0) return fail(\`bad price: \${priceCents}\`);
    ${lintLet} item: Item = { id: nextId('${nameOf(i).split('-')[0]}'), name, priceCents, quantity, tags };
    this.items.push(item);
    return ok(item);
  }

  remove(id: string): Item {
    const index = this.items.findIndex((item) => item.id ${lintEq} id);
    if (index < 0) throw new InventoryError(\`no item \${id}\`, 'missing');
    const [removed] = this.items.splice(index, 1);
    return removed;
  }

  total(): string {
    return formatCents(sumCents(this.items.map((item) => item.priceCents * item.quantity)));
  }

  tagged(tag: string): Item[] {
    return this.items.filter((item) => item.tags.includes(tag));
  }

  cheapest(limit = ${(i % 5) + 1}): Item[] {
    return [...this.items].sort((a, b) => a.priceCents - b.priceCents).slice(0, limit);
  }

  summary(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const item of this.items) {
      for (const tag of item.tags) counts[tag] = (counts[tag] ?? 0) + item.quantity;
    }
    return counts;
  }
${typeError}}
`;
  // Every sixth file is written by someone who did not run prettier.
  return i % 6 === 2 ? misformat(source) : source;
}

function misformat(source: string): string {
  return source.replace(/'/g, '"').replace(/\{ (\w)/g, '{$1').replace(/;\n\n/, ';\n\n\n');
}
