/**
 * Document benchmark. Loopback only, one run, bounded in time.
 *
 *   npm run bench:docs -- [--pages 200] [--timeout 600]
 *
 * Builds the real app in this process (its checker runs in worker threads, as in production) over a temporary
 * DATA_DIR, listens on 127.0.0.1, and as the root account:
 *  1. generates a ~`pages`-page .docx with the `docx` package (616 characters per GB/T 9704 page, a heading
 *     every 20 paragraphs, sentences from the engine's bench sets, every paragraph numbered so none repeats);
 *  2. uploads it over HTTP (multipart) with a socket open, and measures upload -> `done` and the number of
 *     `type 2 cmd 1` progress messages;
 *  3. measures `edit_upload_get` (what the editor loads): time and size (raw JSON and as sent with brotli);
 *  4. measures the tracked-changes export;
 *  5. calls /health every 50 ms throughout and reports the slowest answer (reading and writing .docx files run
 *     in worker threads, so the event loop stays free).
 * Prints figures; asserts nothing about time.
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildApp } from '../app';
import { benchOption, benchSentences } from './support';
import { checkerPool } from '../workers/checker/pool';
import { CHARS_PER_PAGE } from '../formats/documents/extract';

const opt = benchOption;
const PAGES = opt('pages', 200);
const TIMEOUT_S = opt('timeout', 600);

const sentences = benchSentences;

async function makeDocx(pages: number): Promise<{ data: Buffer; chars: number; paragraphs: number }> {
  const pool = sentences();
  let seed = 4242;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const children: Paragraph[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun('基准测试文档')] }),
  ];
  let chars = 0;
  let n = 0;
  while (chars < pages * CHARS_PER_PAGE) {
    if (n % 20 === 0)
      children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(`第${n / 20 + 1}部分`)] }));
    let text = `${++n}．`;
    while (text.length < 120) text += pool[Math.floor(rand() * pool.length)];
    chars += text.length;
    children.push(new Paragraph({ children: [new TextRun({ text, font: { eastAsia: '仿宋_GB2312' } })] }));
  }
  const data = await Packer.toBuffer(new Document({ sections: [{ children }] }));
  return { data, chars, paragraphs: children.length };
}

const ms = (start: number) => `${(performance.now() - start).toFixed(0)} ms`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-docs-'));
  const app = await buildApp({
    logger: false,
    dataDir,
    config: { spaDir: join(dataDir, 'no-spa'), adminPhone: '13800000000', adminPassword: 'bench-password-1' },
  });
  const timer = setTimeout(() => {
    console.error(`timeout after ${TIMEOUT_S} s`);
    process.exit(2);
  }, TIMEOUT_S * 1000);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}`;
    const headers = { cid: 'bench', endpoint: '1' };
    const login = await (
      await fetch(`${base}/user/login`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '13800000000', password: 'bench-password-1' }),
      })
    ).json();
    const token: string = login.result.token;
    const auth = { ...headers, authorization: `Bearer ${token}` };

    let t = performance.now();
    await checkerPool().ready();
    console.log(`checker ready (lexicons loaded): ${ms(t)}`);

    t = performance.now();
    const doc = await makeDocx(PAGES);
    console.log(
      `generated .docx: ${PAGES} pages, ${doc.paragraphs} paragraphs, ${doc.chars} ` +
        `characters, ${(doc.data.length / 1024).toFixed(0)} KB in ${ms(t)}`,
    );

    const socket = new WebSocket(`ws://127.0.0.1:${address.port}/ws?${new URLSearchParams({ token, endpoint: '1' })}`);
    const flags: Array<{ at: number; status: string; progress: number; issue_count: number }> = [];
    let resolveDone: (v: { status: string; error?: string }) => void = () => {};
    const done = new Promise<{ status: string; error?: string }>((r) => (resolveDone = r));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('message', (raw) => {
        const m = JSON.parse(raw.toString());
        if (m.type === 3) resolve();
        if (m.index !== undefined) socket.send(JSON.stringify({ type: 1, cmd: 2, index: m.index }));
        if (m.type === 2 && m.cmd === 1) {
          flags.push({
            at: performance.now(),
            status: m.data.status,
            progress: m.data.progress,
            issue_count: m.data.issue_count,
          });
          if (['done', 'failed', 'cancelled'].includes(m.data.status)) resolveDone(m.data);
        }
      });
    });

    // the server's responsiveness while the job runs: /health every 50 ms, slowest answer kept
    let slowestHealth = 0;
    let healthCalls = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const h = performance.now();
        await fetch(`${base}/health`).then((r) => r.arrayBuffer());
        slowestHealth = Math.max(slowestHealth, performance.now() - h);
        healthCalls++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(doc.data)]), '基准测试.docx');
    t = performance.now();
    const uploadRes = await fetch(`${base}/misscut/document/v1/upload`, { method: 'POST', headers: auth, body: form });
    const uploaded = await uploadRes.json();
    if (uploadRes.status !== 200) throw new Error(`upload ${uploadRes.status}: ${JSON.stringify(uploaded)}`);
    const uploadMs = performance.now() - t;
    const end = await done;
    const totalMs = performance.now() - t;
    if (end.status !== 'done') throw new Error(`job ${end.status}: ${end.error}`);
    const running = flags.filter((f) => f.status === 'running');
    const firstProgress = running.find((f) => f.progress > 0);
    console.log(`upload answered: ${uploadMs.toFixed(0)} ms`);
    console.log(`upload -> done: ${totalMs.toFixed(0)} ms (${((doc.chars / totalMs) * 1000).toFixed(0)} characters/s)`);
    console.log(
      `progress messages: ${flags.length} (running ${running.length}), first ` +
        `progress > 0 after ${firstProgress ? (firstProgress.at - t).toFixed(0) : '-'} ` +
        `ms, findings ${flags[flags.length - 1].issue_count}`,
    );

    const id = uploaded.result.id;
    t = performance.now();
    const detailRes = await fetch(`${base}/misscut/document/v1/edit_upload_get?id=${id}`, {
      headers: { ...auth, 'accept-encoding': 'identity' },
    });
    const detailText = await detailRes.text();
    const getMs = performance.now() - t;
    const detail = JSON.parse(detailText).result;
    t = performance.now();
    const compressedBytes = await new Promise<number>((resolve, reject) => {
      get(
        `${base}/misscut/document/v1/edit_upload_get?id=${id}`,
        { headers: { ...auth, 'accept-encoding': 'br' } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve(bytes));
        },
      ).on('error', reject);
    });
    const getBrMs = performance.now() - t;
    console.log(
      `edit_upload_get: ${getMs.toFixed(0)} ms, ` +
        `${(Buffer.byteLength(detailText) / 1024).toFixed(0)} KB JSON ` +
        `(${detail.text.length} characters of text, ` +
        `${(detail.html.length / 1024).toFixed(0)} KB html, ${detail.issues.length} ` +
        `findings); ` +
        `with brotli: ${getBrMs.toFixed(0)} ms, ${(compressedBytes / 1024).toFixed(0)} KB on the wire`,
    );

    t = performance.now();
    const exportRes = await fetch(`${base}/misscut/document/v1/export`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ id, mode: 'tracked' }),
    });
    const exported = await exportRes.arrayBuffer();
    console.log(
      `export tracked (${detail.issues.length} comments): ${ms(t)}, ${(exported.byteLength / 1024).toFixed(0)} KB`,
    );
    polling = false;
    await poller;
    console.log(
      `/health during upload, check, editor load and export: ${healthCalls} calls, ` +
        `slowest ${slowestHealth.toFixed(0)} ms`,
    );
    socket.close(1000);
  } finally {
    clearTimeout(timer);
    await app.close();
    await checkerPool().close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
