/**
 * The engine's precompiled lexicons: one file of typed arrays (the language models, their lattices, the word
 * tables and the speller's indexes as built from the text lexicons), read into one buffer and viewed in place.
 * Loading is a file read instead of seconds of parsing and Map building, and the buffer can be a
 * SharedArrayBuffer that every checker worker views without a copy.
 *
 * File: "CSIM", format version, header length (u32 each), a JSON header { key, sections: name -> [type, offset,
 * length] }, then the sections, each 8-byte aligned.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

type B = ArrayBufferLike;
export type Section =
  Uint8Array<B> | Int8Array<B> | Uint16Array<B> | Int32Array<B> | Uint32Array<B> | Float32Array<B> | Float64Array<B>;
type CtorName =
  'Uint8Array' | 'Int8Array' | 'Uint16Array' | 'Int32Array' | 'Uint32Array' | 'Float32Array' | 'Float64Array';

const MAGIC = 'CSIM';
const FORMAT = 1;

interface Header {
  key: string;
  sections: Record<string, [CtorName, number, number]>;
}

export class ImageWriter {
  private sections = new Map<string, Section>();
  put(name: string, arr: Section) {
    if (this.sections.has(name)) throw new Error(`image section ${name} written twice`);
    this.sections.set(name, arr);
  }

  /** the file's bytes */
  toBuffer(key: string): Buffer {
    const header: Header = { key, sections: {} };
    let off = 0;
    for (const [name, arr] of this.sections) {
      header.sections[name] = [arr.constructor.name as CtorName, off, arr.length];
      off += arr.byteLength + ((8 - (arr.byteLength % 8)) % 8);
    }
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const start = align8(12 + json.length);
    const out = Buffer.alloc(start + off);
    out.write(MAGIC, 0, 'latin1');
    out.writeUInt32LE(FORMAT, 4);
    out.writeUInt32LE(json.length, 8);
    json.copy(out, 12);
    for (const [name, arr] of this.sections) {
      const [, o] = header.sections[name];
      out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), start + o);
    }
    return out;
  }
}

export class ImageReader {
  readonly key: string;
  private header: Header;
  private start: number;
  constructor(readonly buffer: SharedArrayBuffer | ArrayBuffer) {
    const bytes = new Uint8Array(buffer);
    const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (magic !== MAGIC || view.getUint32(4, true) !== FORMAT) throw new Error('not an engine image');
    const len = view.getUint32(8, true);
    this.header = JSON.parse(Buffer.from(bytes.subarray(12, 12 + len)).toString('utf8')) as Header;
    this.key = this.header.key;
    this.start = align8(12 + len);
  }

  has(name: string): boolean {
    return name in this.header.sections;
  }

  private get(name: string, want: CtorName): Section {
    const s = this.header.sections[name];
    if (!s) throw new Error(`engine image has no section ${name}`);
    const [type, off, length] = s;
    if (type !== want) throw new Error(`engine image section ${name} is ${type}, not ${want}`);
    const buf = this.buffer,
      o = this.start + off;
    switch (type) {
      case 'Uint8Array':
        return new Uint8Array(buf, o, length);
      case 'Int8Array':
        return new Int8Array(buf, o, length);
      case 'Uint16Array':
        return new Uint16Array(buf, o, length);
      case 'Int32Array':
        return new Int32Array(buf, o, length);
      case 'Uint32Array':
        return new Uint32Array(buf, o, length);
      case 'Float32Array':
        return new Float32Array(buf, o, length);
      case 'Float64Array':
        return new Float64Array(buf, o, length);
    }
  }
  u8(name: string) {
    return this.get(name, 'Uint8Array') as Uint8Array<B>;
  }
  i8(name: string) {
    return this.get(name, 'Int8Array') as Int8Array<B>;
  }
  u16(name: string) {
    return this.get(name, 'Uint16Array') as Uint16Array<B>;
  }
  i32(name: string) {
    return this.get(name, 'Int32Array') as Int32Array<B>;
  }
  u32(name: string) {
    return this.get(name, 'Uint32Array') as Uint32Array<B>;
  }
  f32(name: string) {
    return this.get(name, 'Float32Array') as Float32Array<B>;
  }
  f64(name: string) {
    return this.get(name, 'Float64Array') as Float64Array<B>;
  }
}

/** reads a file into a SharedArrayBuffer (null when it cannot be read) */
export function readShared(file: string): SharedArrayBuffer | null {
  let fd = -1;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const sab = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(sab);
    for (let got = 0; got < size;) {
      const n = readSync(fd, bytes, got, size - got, got);
      if (n <= 0) return null;
      got += n;
    }
    return sab;
  } catch {
    return null;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function align8(n: number) {
  return n + ((8 - (n % 8)) % 8);
}

/** Immutable list of strings as UTF-16 units and offsets. */
export class StrList {
  constructor(
    readonly chars: Uint16Array<B>,
    readonly off: Uint32Array<B>,
  ) {}
  static from(items: readonly string[]): StrList {
    let n = 0;
    for (const s of items) n += s.length;
    const chars = new Uint16Array(n);
    const off = new Uint32Array(items.length + 1);
    let p = 0;
    items.forEach((s, i) => {
      off[i] = p;
      for (let k = 0; k < s.length; k++) chars[p++] = s.charCodeAt(k);
    });
    off[items.length] = p;
    return new StrList(chars, off);
  }
  static read(r: ImageReader, p: string) {
    return new StrList(r.u16(`${p}.c`), r.u32(`${p}.o`));
  }
  save(w: ImageWriter, p: string) {
    w.put(`${p}.c`, this.chars);
    w.put(`${p}.o`, this.off);
  }
  get length() {
    return this.off.length - 1;
  }
  at(i: number): string {
    const a = this.off[i],
      c = this.chars;
    // short items (most of them) without a subarray
    switch (this.off[i + 1] - a) {
      case 0:
        return '';
      case 1:
        return String.fromCharCode(c[a]);
      case 2:
        return String.fromCharCode(c[a], c[a + 1]);
      case 3:
        return String.fromCharCode(c[a], c[a + 1], c[a + 2]);
      case 4:
        return String.fromCharCode(c[a], c[a + 1], c[a + 2], c[a + 3]);
      default:
        return Reflect.apply(String.fromCharCode, null, c.subarray(a, this.off[i + 1]));
    }
  }
  lengthAt(i: number) {
    return this.off[i + 1] - this.off[i];
  }
  /** s equals item i */
  equals(i: number, s: string): boolean {
    return this.equalsRange(i, s, 0, s.length);
  }
  /** s[from, to) equals item i */
  equalsRange(i: number, s: string, from: number, to: number): boolean {
    const a = this.off[i];
    if (this.off[i + 1] - a !== to - from) return false;
    for (let k = from; k < to; k++) if (this.chars[a + k - from] !== s.charCodeAt(k)) return false;
    return true;
  }
  /** unit k of item i */
  codeAt(i: number, k: number): number {
    return this.chars[this.off[i] + k];
  }
  /** item i contains the UTF-16 unit c */
  includesCode(i: number, c: number): boolean {
    for (let k = this.off[i]; k < this.off[i + 1]; k++) if (this.chars[k] === c) return true;
    return false;
  }
  *[Symbol.iterator](): IterableIterator<string> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

/**
 * A set of 32-bit hashes that answers "surely not in it" or "maybe": a blocked Bloom filter, two bits in one 32-bit
 * word per key, about 12 bits per key, a few per cent of false "maybe". For hot lookups that mostly find nothing: a
 * search in a table that holds nothing for the key still touches cache lines the filter's one word spares.
 */
export class HashFilter {
  constructor(readonly bits: Uint32Array<B>) {}
  /** an empty filter for about n keys */
  static sized(n: number): HashFilter {
    return new HashFilter(new Uint32Array(Math.max(1, Math.ceil((n * 12) / 32))));
  }
  static read(r: ImageReader, name: string): HashFilter {
    return new HashFilter(r.u32(name));
  }
  save(w: ImageWriter, name: string) {
    w.put(name, this.bits);
  }
  /** h: a well-mixed 32-bit hash (mix32) */
  add(h: number) {
    this.bits[filterWord(h, this.bits.length)] |= filterMask(h);
  }
  has(h: number): boolean {
    const m = filterMask(h);
    return (this.bits[filterWord(h, this.bits.length)] & m) === m;
  }
}

/** a filter's word for hash h among n words, from the hash's high bits (see filterMask) */
export function filterWord(h: number, n: number): number {
  return Math.floor(((h >>> 10) * n) / 4194304);
}

/** the two bits a filter sets for hash h in its word, from the hash's low ten bits */
export function filterMask(h: number): number {
  return (1 << (h & 31)) | (1 << ((h >>> 5) & 31));
}

/** a 32-bit hash with its bits well mixed (murmur3's finaliser) */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a over UTF-16 units, one unit at a time: the state for the string so far and unit c (start: FNV_START) */
export const FNV_START = 0x811c9dc5;
export function fnvStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

function strHash(s: string, from: number, to: number): number {
  let h = FNV_START;
  for (let k = from; k < to; k++) h = fnvStep(h, s.charCodeAt(k));
  return (h ^ (h >>> 15)) >>> 0;
}

function listHash(l: StrList, i: number): number {
  let h = FNV_START;
  for (let k = l.off[i]; k < l.off[i + 1]; k++) h = fnvStep(h, l.chars[k]);
  return (h ^ (h >>> 15)) >>> 0;
}

function numHash(k: number): number {
  const lo = k % 4294967296,
    hi = (k - lo) / 4294967296;
  const h = Math.imul(lo | 0, 0x9e3779b1) ^ Math.imul((hi | 0) + 0x7f4a7c15, 0x85ebca6b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * An open-addressing table of the keys 0..n-1 (hashOf gives key i's hash), at most two thirds full so linear
 * probing stays short; -1 marks an empty slot.
 */
function slotTable(n: number, hashOf: (i: number) => number): Int32Array {
  let size = 2;
  while (size * 2 < 3 * n) size <<= 1;
  const slots = new Int32Array(size).fill(-1);
  const mask = size - 1;
  for (let i = 0; i < n; i++) {
    let h = hashOf(i) & mask;
    while (slots[h] >= 0) h = (h + 1) & mask;
    slots[h] = i;
  }
  return slots;
}

/**
 * Immutable hash index over strings: string -> its position in the key list, or -1. The hot lookups (patterns,
 * missing characters, names) mostly ask for keys that are not there, and an unsuccessful search compares the keys it
 * passes on its way to an empty slot: a filter of the keys answers most of them first.
 */
export class StrIndex {
  private mask: number;
  constructor(
    readonly keys: StrList,
    private slots: Int32Array<B>,
    private filter: HashFilter,
  ) {
    this.mask = slots.length - 1;
  }
  static build(keys: StrList): StrIndex {
    const filter = HashFilter.sized(keys.length);
    for (let i = 0; i < keys.length; i++) filter.add(mix32(listHash(keys, i)));
    return new StrIndex(
      keys,
      slotTable(keys.length, (i) => listHash(keys, i)),
      filter,
    );
  }
  static read(r: ImageReader, p: string) {
    return new StrIndex(StrList.read(r, `${p}.k`), r.i32(`${p}.s`), HashFilter.read(r, `${p}.f`));
  }
  save(w: ImageWriter, p: string) {
    this.keys.save(w, `${p}.k`);
    w.put(`${p}.s`, this.slots);
    this.filter.save(w, `${p}.f`);
  }
  find(s: string): number {
    return this.findRange(s, 0, s.length);
  }
  /** find(s.slice(from, to)) without making the string */
  findRange(s: string, from: number, to: number): number {
    const hash = strHash(s, from, to);
    if (!this.filter.has(mix32(hash))) return -1;
    for (let h = hash & this.mask; ; h = (h + 1) & this.mask) {
      const i = this.slots[h];
      if (i < 0 || this.keys.equalsRange(i, s, from, to)) return i;
    }
  }
  get size() {
    return this.keys.length;
  }
}

/** Immutable hash index over non-negative integers below 2^53: key -> its position, or -1 (filtered as StrIndex). */
export class NumIndex {
  private mask: number;
  constructor(
    readonly keys: Float64Array<B>,
    private slots: Int32Array<B>,
    private filter: HashFilter,
  ) {
    this.mask = slots.length - 1;
  }
  static build(keys: Float64Array): NumIndex {
    const filter = HashFilter.sized(keys.length);
    for (let i = 0; i < keys.length; i++) filter.add(mix32(numHash(keys[i])));
    return new NumIndex(
      keys,
      slotTable(keys.length, (i) => numHash(keys[i])),
      filter,
    );
  }
  static read(r: ImageReader, p: string) {
    return new NumIndex(r.f64(`${p}.k`), r.i32(`${p}.s`), HashFilter.read(r, `${p}.f`));
  }
  save(w: ImageWriter, p: string) {
    w.put(`${p}.k`, this.keys);
    w.put(`${p}.s`, this.slots);
    this.filter.save(w, `${p}.f`);
  }
  find(k: number): number {
    const hash = numHash(k);
    if (!this.filter.has(mix32(hash))) return -1;
    for (let h = hash & this.mask; ; h = (h + 1) & this.mask) {
      const i = this.slots[h];
      if (i < 0 || this.keys[i] === k) return i;
    }
  }
}

/**
 * Immutable map from numbers and strings to strings (the speller's patterns: a word with one character masked ->
 * the characters that complete it). find() gives the value's index in `values`, for hot loops that read its units
 * without making a string.
 */
export class FrozenStrings {
  constructor(
    private nums: NumIndex,
    private strs: StrIndex,
    readonly values: StrList,
  ) {}
  static build(m: ReadonlyMap<number | string, string>): FrozenStrings {
    const nk: number[] = [],
      nv: string[] = [],
      sk: string[] = [],
      sv: string[] = [];
    for (const [k, v] of m) {
      if (typeof k === 'number') {
        nk.push(k);
        nv.push(v);
      } else {
        sk.push(k);
        sv.push(v);
      }
    }
    return new FrozenStrings(
      NumIndex.build(Float64Array.from(nk)),
      StrIndex.build(StrList.from(sk)),
      StrList.from([...nv, ...sv]),
    );
  }
  static read(r: ImageReader, p: string) {
    return new FrozenStrings(NumIndex.read(r, `${p}.n`), StrIndex.read(r, `${p}.s`), StrList.read(r, `${p}.v`));
  }
  save(w: ImageWriter, p: string) {
    this.nums.save(w, `${p}.n`);
    this.strs.save(w, `${p}.s`);
    this.values.save(w, `${p}.v`);
  }
  /** the index of k's value in `values`, or -1 */
  find(k: number | string): number {
    return typeof k === 'number' ? this.findNum(k) : this.findStr(k);
  }
  /** find for a key known to be a number or a string (hot loops keep their call sites of one type) */
  findNum(k: number): number {
    return this.nums.find(k);
  }
  findStr(k: string): number {
    return this.findStrRange(k, 0, k.length);
  }
  /** findStr(s.slice(from, to)) without making the string */
  findStrRange(s: string, from: number, to: number): number {
    const i = this.strs.findRange(s, from, to);
    return i < 0 ? -1 : this.nums.keys.length + i;
  }
  get(k: number | string): string | undefined {
    const i = this.find(k);
    return i < 0 ? undefined : this.values.at(i);
  }
}

/** Immutable set of strings. */
export class FrozenSet {
  constructor(private index: StrIndex) {}
  static build(items: Iterable<string>): FrozenSet {
    return new FrozenSet(StrIndex.build(StrList.from([...new Set(items)])));
  }
  static read(r: ImageReader, p: string) {
    return new FrozenSet(StrIndex.read(r, p));
  }
  save(w: ImageWriter, p: string) {
    this.index.save(w, p);
  }
  has(s: string): boolean {
    return this.index.find(s) >= 0;
  }
  get size() {
    return this.index.size;
  }
}

/** Immutable map from strings to lists of strings (stored joined by a separator), the lists made when first read. */
export class FrozenLists {
  private made = new Map<string, string[]>();
  constructor(
    private store: FrozenStrings,
    private sep: string,
  ) {}
  static build(m: ReadonlyMap<string, readonly string[]>, sep: string): FrozenLists {
    const joined = new Map<string, string>();
    for (const [k, v] of m) joined.set(k, v.join(sep));
    return new FrozenLists(FrozenStrings.build(joined), sep);
  }
  static read(r: ImageReader, p: string, sep: string) {
    return new FrozenLists(FrozenStrings.read(r, p), sep);
  }
  save(w: ImageWriter, p: string) {
    this.store.save(w, p);
  }
  /** the list (shared: do not modify it) */
  get(k: string): readonly string[] | undefined {
    const hit = this.made.get(k);
    if (hit) return hit;
    const v = this.store.get(k);
    if (v === undefined) return undefined;
    const list = this.sep ? v.split(this.sep) : Array.from(v);
    this.made.set(k, list);
    return list;
  }
}
