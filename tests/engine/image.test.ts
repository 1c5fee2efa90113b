import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FrozenLists,
  FrozenSet,
  FrozenStrings,
  ImageReader,
  ImageWriter,
  NumIndex,
  StrIndex,
  StrList,
} from '../../engine/image';

/** writes sections with `save`, reads them back from a SharedArrayBuffer as a loading engine does */
function roundTrip(save: (w: ImageWriter) => void): ImageReader {
  const w = new ImageWriter();
  save(w);
  const buf = w.toBuffer('test-key');
  const sab = new SharedArrayBuffer(buf.length);
  new Uint8Array(sab).set(buf);
  return new ImageReader(sab);
}

describe('engine image structures', () => {
  const words = ['', '的', '画龙点睛', '𠮷野家', 'a b', '中华人民共和国', '画龙点晴'];

  it('lists keep every string, including empty ones and characters outside the basic plane', () => {
    const r = roundTrip((w) => StrList.from(words).save(w, 'l'));
    const l = StrList.read(r, 'l');
    expect([...l]).toEqual(words);
    expect(l.equals(2, '画龙点睛')).toBe(true);
    expect(l.equals(2, '画龙点晴')).toBe(false);
    expect(l.includesCode(2, '点'.charCodeAt(0))).toBe(true);
    expect(l.includesCode(2, '晴'.charCodeAt(0))).toBe(false);
  });

  it('string and number indexes find every key and nothing else', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `词${i.toString(36)}`);
    const nums = Float64Array.from({ length: 5000 }, (_, i) => i * 65536 * 65536 * 7 + i);
    const r = roundTrip((w) => {
      StrIndex.build(StrList.from(many)).save(w, 's');
      NumIndex.build(nums).save(w, 'n');
    });
    const s = StrIndex.read(r, 's');
    const n = NumIndex.read(r, 'n');
    for (let i = 0; i < many.length; i += 7) expect(s.find(many[i])).toBe(i);
    expect(s.find('词')).toBe(-1);
    expect(s.find('词0 ')).toBe(-1);
    // a range of a longer string finds what the slice finds, without the slice
    for (let i = 0; i < many.length; i += 7) expect(s.findRange(`前${many[i]}后`, 1, 1 + many[i].length)).toBe(i);
    expect(s.findRange(`前${many[7]}后`, 1, many[7].length)).toBe(s.find(many[7].slice(0, -1)));
    expect(s.findRange('词词', 0, 1)).toBe(s.find('词'));
    for (let i = 0; i < nums.length; i += 7) expect(n.find(nums[i])).toBe(i);
    expect(n.find(1)).toBe(-1);
    expect(n.find(nums[3] + 1)).toBe(-1);
  });

  it('maps, lists and sets answer as the Maps they were built from', () => {
    const m = new Map<number | string, string>([
      [12345678901234, '睛晴'],
      ['画龙\0睛', '点'],
      [7, ''],
    ]);
    const lists = new Map([
      ['zhong', ['中', '钟', '𠮷']],
      ['hua', ['画']],
    ]);
    const r = roundTrip((w) => {
      FrozenStrings.build(m).save(w, 'm');
      FrozenLists.build(lists, '').save(w, 'l');
      FrozenSet.build(['张三', '李四', '张三']).save(w, 's');
    });
    const fm = FrozenStrings.read(r, 'm');
    for (const [k, v] of m) expect(fm.get(k)).toBe(v);
    expect(fm.get(12345678901235)).toBeUndefined();
    expect(fm.get('画龙\0晴')).toBeUndefined();
    const at = fm.find(12345678901234);
    expect(fm.values.lengthAt(at)).toBe(2);
    expect(fm.values.codeAt(at, 1)).toBe('晴'.charCodeAt(0));
    const fl = FrozenLists.read(r, 'l', '');
    expect(fl.get('zhong')).toEqual(['中', '钟', '𠮷']);
    expect(fl.get('zhong')).toBe(fl.get('zhong'));
    expect(fl.get('zhang')).toBeUndefined();
    const fs = FrozenSet.read(r, 's');
    expect(fs.size).toBe(2);
    expect(fs.has('李四')).toBe(true);
    expect(fs.has('王五')).toBe(false);
  });

  it('refuses a file that is not an image and a section read as the wrong type', () => {
    expect(() => new ImageReader(new Uint8Array(64).buffer)).toThrow(/not an engine image/);
    const r = roundTrip((w) => w.put('x', new Int32Array(4)));
    expect(() => r.u32('x')).toThrow(/is Int32Array/);
    expect(() => r.u32('missing')).toThrow(/no section missing/);
  });
});

describe('loading the engine from its image', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dir = mkdtempSync(path.join(tmpdir(), 'engine-image-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** loads the engine in a fresh process with its images in `from`; prints the source and a check's findings */
  const load = (from: string | null = dir) => {
    const code = `import('./engine/index.ts').then((m) => {
      const { source } = m.loadEngine();
      const found = m.check('他的发言真是画龙点晴，让人精神抖数。', { mode: 4 }).map((i) => i.original + '>' + i.suggestions[0]);
      console.log(JSON.stringify({ source, found }));
    })`;
    const env = { ...process.env };
    delete env.ENGINE_IMAGE_DIR;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], {
      env: from ? { ...env, ENGINE_IMAGE_DIR: from } : env,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as { source: string; found: string[] };
  };
  const images = (at: string) => readdirSync(at).filter((f) => /^engine-[0-9a-f]+\.img$/.test(f));

  it('reads the saved image, and builds it again when the file is damaged, leaving no stale image', () => {
    // the image beside the lexicons (npm test builds it before the tests; a load builds it when missing)
    const home = path.join(root, 'engine', '.image');
    const own = load(null);
    expect(['file', 'built']).toContain(own.source);
    expect(own.found).toContain('画龙点晴>画龙点睛');
    const [current] = images(home);
    copyFileSync(path.join(home, current), path.join(dir, current));
    writeFileSync(path.join(dir, 'engine-0000000000000000.img'), 'an image of other code');
    expect(load()).toEqual({ source: 'file', found: own.found });
    const file = path.join(dir, current);
    const bytes = readFileSync(file);
    bytes.write('XXXX', 0, 'latin1');
    writeFileSync(file, bytes);
    expect(load()).toEqual({ source: 'built', found: own.found });
    // built and saved again under its own name; the stale image of other code is gone
    expect(images(dir)).toEqual([current]);
    expect(readFileSync(file).subarray(0, 4).toString('latin1')).toBe('CSIM');
    expect(load()).toEqual({ source: 'file', found: own.found });
  }, 120_000);
});
