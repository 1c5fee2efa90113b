/** 9-1 addresses: a city that does not belong to the province named before it, or a district/county not in the city. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../lm';
import { noted } from '../messages';
import type { Issue } from '../types';

interface Regions {
  provinces: Record<string, string[]>;
  cities: Record<string, string[]>;
}

export class AddressChecker {
  private provinceOfCity = new Map<string, string[]>();
  private cityOfDistrict = new Map<string, string[]>();
  private provinceNames: Array<[string, string]> = []; // [surface, full name]
  private cityNames: string[] = [];
  private regions: Regions;
  constructor() {
    this.regions = JSON.parse(readFileSync(path.join(dataDir, 'regions.json'), 'utf8'));
    for (const [p, cs] of Object.entries(this.regions.provinces)) {
      this.provinceNames.push([p, p]);
      const short = p.replace(/(省|市|壮族自治区|回族自治区|维吾尔自治区|自治区|特别行政区)$/, '');
      if (short !== p && short.length >= 2) this.provinceNames.push([short, p]);
      for (const c of cs) this.provinceOfCity.set(c, [...(this.provinceOfCity.get(c) ?? []), p]);
    }
    for (const [c, ds] of Object.entries(this.regions.cities)) {
      this.cityNames.push(c);
      for (const d of ds) this.cityOfDistrict.set(d, [...(this.cityOfDistrict.get(d) ?? []), c]);
    }
    this.provinceNames.sort((a, b) => b[0].length - a[0].length);
    this.cityNames.sort((a, b) => b.length - a.length);
  }

  /** names by their first unit's code: the text is walked by code, no string made per character */
  private cityFirst = new Map<number, string[]>();
  private provFirst = new Map<number, Array<[string, string]>>();
  private index() {
    if (this.cityFirst.size) return;
    for (const c of this.cityNames) {
      const k = c.charCodeAt(0);
      this.cityFirst.set(k, [...(this.cityFirst.get(k) ?? []), c]);
    }
    for (const p of this.provinceNames) {
      const k = p[0].charCodeAt(0);
      this.provFirst.set(k, [...(this.provFirst.get(k) ?? []), p]);
    }
  }

  private cityAt(text: string, i: number): string | null {
    const cs = this.cityFirst.get(text.charCodeAt(i));
    if (cs) for (const c of cs) if (text.startsWith(c, i)) return c;
    return null;
  }

  check(text: string): Issue[] {
    const out: Issue[] = [];
    this.index();
    for (let i = 0; i < text.length; i++) {
      let matched = false;
      const ps = this.provFirst.get(text.charCodeAt(i));
      if (ps)
        for (const [surface, full] of ps) {
          if (!text.startsWith(surface, i)) continue;
          const j = i + surface.length;
          const city = this.cityAt(text, j);
          if (!city || city === full) break;
          matched = true;
          const cities = this.regions.provinces[full] ?? [];
          if (!cities.includes(city)) {
            const real = this.provinceOfCity.get(city);
            if (real && real.length) {
              out.push({
                start: i,
                end: j,
                original: surface,
                suggestions: real.slice(0, 3),
                category: '9-1',
                level: 2,
                ...noted('address.mismatch', { place: city, real: real.join('、'), claimed: full }),
              });
            }
          }
          this.checkDistrict(text, j + city.length, city, out);
          i = j + city.length - 1;
          break;
        }
      if (matched) continue;
      const city = this.cityAt(text, i);
      if (city) {
        this.checkDistrict(text, i + city.length, city, out);
        i += city.length - 1;
      }
    }
    return out;
  }

  private checkDistrict(text: string, j: number, city: string, out: Issue[]) {
    const ds = this.regions.cities[city];
    if (!ds) return;
    // longest district/county name known anywhere that starts at j
    let best: string | null = null;
    for (let L = 2; L <= 8 && j + L <= text.length; L++) {
      const cand = text.slice(j, j + L);
      if (this.cityOfDistrict.has(cand) && /[区县旗市]$/.test(cand)) best = cand;
    }
    if (!best || ds.includes(best)) return;
    const real = this.cityOfDistrict.get(best)!;
    out.push({
      start: j - city.length,
      end: j,
      original: city,
      suggestions: real.slice(0, 3),
      category: '9-1',
      level: 2,
      ...noted('address.mismatch', { place: best, real: real.join('、'), claimed: city }),
    });
  }
}
