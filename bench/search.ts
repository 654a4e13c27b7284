/**
 * `npm run bench:search`: what one search of the order page costs over a large platform.
 *
 * Indexes 5,000 services of one platform (as `indexCatalog` does for the order page) and times
 * `searchPlatform` for a set of queries, median and p90 of many rounds. The baseline, measured in
 * the same run on the same services, is a plain scan that builds each service's lower-cased text
 * on every search.
 */
import type { PublicService } from '../src/core/contracts/catalog';
import { indexCatalog, searchPlatform } from '../src/web/features/catalog/catalogIndex';

const SERVICES = 5000;
const ROUNDS = 200;
const QUERIES = ['service 12', 'hq likes', '#14999', 'real views 49', 'nothing like this', 'followers'];
const GROUPS = ['likes', 'followers', 'views', 'shares', 'comments', 'other'] as const;

const services: PublicService[] = Array.from({ length: SERVICES }, (_, i) => ({
  id: String(10_000 + i),
  platform: 'instagram',
  name: `Instagram Service ${i} [Real, HQ]`,
  type: GROUPS[i % GROUPS.length]!,
  group: GROUPS[i % GROUPS.length]!,
  min: 10,
  max: 1000,
  step: 1,
  tiers: [{ minimum: 10, maximum: 1000, price: '1.00', pricingPer: 1000 }],
  displayPrice: '1.00',
  displayPer: 1000,
  hasParams: false,
}));

const platform = indexCatalog(services).byPlatform.get('instagram')!;
const plainScan = (query: string) => {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return services.filter((s) => words.every((w) => `${s.name} ${s.type} #${s.id}`.toLocaleLowerCase().includes(w)));
};

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const at = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

/** Per-search times in ms of `search` over every query, rounds interleaved with the other side. */
function time(search: (q: string) => unknown, into: number[]) {
  for (const q of QUERIES) {
    const started = performance.now();
    search(q);
    into.push(performance.now() - started);
  }
}

for (let i = 0; i < 20; i++) {
  time((q) => searchPlatform(platform, q), []);
  time(plainScan, []);
}
const ours: number[] = [];
const baseline: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  time((q) => searchPlatform(platform, q), ours);
  time(plainScan, baseline);
}
const row = (name: string, xs: number[]) => `| ${name} | ${at(xs, 0.5).toFixed(3)} ms | ${at(xs, 0.9).toFixed(3)} ms |`;
console.log(`${SERVICES} services, ${QUERIES.length} queries × ${ROUNDS} rounds\n`);
console.log('| search | median | p90 |\n|---|---|---|');
console.log(row('searchPlatform (indexed)', ours));
console.log(row('plain scan (baseline)', baseline));
