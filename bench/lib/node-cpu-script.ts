// The CPU-bound script the node benches run on each engine and on real Node: a JSON round trip of a 5 MB document
// and a prime sieve to 2,000,000, each timed inside the program (so the figure is the engine's, not the start-up's).

export const CPU_SCRIPT = `
const started = performance.now();
const doc = { items: [] };
for (let i = 0; i < 66000; i++) doc.items.push({ id: i, name: 'item ' + i, tags: ['a', 'b', 'c'], price: i * 1.5, ok: true });
const text = JSON.stringify(doc);
const back = JSON.parse(text);
const json = performance.now() - started; // building the document, stringify and parse
const limit = 2000000;
const sieve = new Uint8Array(limit + 1);
let primes = 0;
for (let i = 2; i <= limit; i++) {
  if (sieve[i]) continue;
  primes++;
  for (let j = i * i; j <= limit; j += i) sieve[j] = 1;
}
const total = performance.now() - started;
console.log(JSON.stringify({ bytes: text.length, items: back.items.length, primes, jsonMs: json, sieveMs: total - json, totalMs: total }));
`;

export type CpuResult = { bytes: number; items: number; primes: number; jsonMs: number; sieveMs: number; totalMs: number };
