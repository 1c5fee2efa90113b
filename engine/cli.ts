/**
 * npm run -s check -- --jsonl [--mode 3|4] [--lang cn|hk]   JSON lines {"id","text"} -> {"id","issues"}
 * npm run -s check -- [--mode 3|4] [--lang cn|hk] < file.txt  readable findings
 */
import { createInterface } from 'node:readline';
import { check, loadEngine, CATEGORY_BY_CODE } from './index';
import type { CheckOptions } from './types';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const options: CheckOptions = {
  mode: opt('--mode') === '4' ? 4 : 3,
  lang: opt('--lang') === 'hk' ? 'hk' : 'cn',
};
const co = opt('--check-options');
if (co) options.checkOptions = Number(co);

async function main() {
  const { loadMs } = loadEngine();
  if (args.includes('--jsonl')) {
    console.error(`lexicons loaded in ${loadMs} ms`);
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      if (!line.trim()) continue;
      let id: unknown = null;
      try {
        const obj = JSON.parse(line);
        id = obj.id;
        const issues = check(String(obj.text ?? ''), options);
        process.stdout.write(JSON.stringify({ id, issues }) + '\n');
      } catch (err) {
        process.stdout.write(JSON.stringify({ id, error: String((err as Error).message ?? err) }) + '\n');
      }
    }
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const issues = check(text, options);
  console.error(`lexicons loaded in ${loadMs} ms`);
  if (!issues.length) {
    console.log('没有发现问题 (no issues found)');
    return;
  }
  for (const i of issues) {
    const before = text.slice(0, i.start);
    const line = before.split('\n').length;
    const col = i.start - before.lastIndexOf('\n');
    const cat = CATEGORY_BY_CODE.get(i.category);
    const sugg = i.suggestions.length ? ` -> ${i.suggestions.map((s) => `「${s}」`).join(' / ')}` : '';
    console.log(`${line}:${col} [${i.category} ${cat?.cn ?? ''}] 「${i.original}」${sugg}  ${i.message}`);
  }
}
main();
