/**
 * Derives engine/data/regions.json from the npm package china-area-data (MIT):
 * { provinces: {省名: [市名...]}, cities: {市名: [区县名...]} } (municipalities list their districts as a city).
 * Usage: npx tsx engine/tools/build-regions.ts
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const d: Record<string, Record<string, string>> = require('china-area-data');
const here = path.dirname(fileURLToPath(import.meta.url));
const provinces: Record<string, string[]> = {};
const cities: Record<string, string[]> = {};
for (const [pcode, pname] of Object.entries(d['86'])) {
  const cs = d[pcode] ?? {};
  const cityNames: string[] = [];
  for (const [ccode, cname] of Object.entries(cs)) {
    const ds = Object.values(d[ccode] ?? {}).filter((x) => x !== '市辖区');
    if (cname === '市辖区' || cname === '县') {
      // municipality: districts belong to the province-level city
      cities[pname] = [...(cities[pname] ?? []), ...ds];
    } else {
      cityNames.push(cname);
      cities[cname] = [...(cities[cname] ?? []), ...ds];
    }
  }
  provinces[pname] = cityNames;
}
writeFileSync(path.resolve(here, '..', 'lexicon', 'regions.json'), JSON.stringify({ provinces, cities }));
console.log(Object.keys(provinces).length, 'provinces', Object.keys(cities).length, 'cities');
