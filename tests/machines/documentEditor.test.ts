// The document editor machine: findings, accepted fixes and ignored findings must stay on the
// characters they name through any sequence of accepts, ignores and hand edits, because the server
// rejects a fix that does not match the saved text and the tracked-changes export writes them in place.
// The live machine runs with the transport faked (load/save answer from a fake document store).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { documentEditorMachine, type DocumentEditorContext, type SaveBody } from '../../src/machines/documentEditor';
import type { DocumentDetail } from '../../src/machines/documentCalls';

const TEXT = '关于召开会议的通知\n我们在次见面，他的成积很好。\n他跑的很快，我们在次讨论。';
const issue = (text: string, original: string, from: number, suggestion: string, category: string) => {
  const start = text.indexOf(original, from);
  return {
    start,
    end: start + original.length,
    original,
    suggestions: [suggestion],
    category,
    level: 1,
    message: `“${original}”疑误`,
  };
};

function detail(text = TEXT): DocumentDetail {
  return {
    id: 7,
    name: '通知.docx',
    file_type: 'docx',
    size: 100,
    status: 'done',
    progress: 100,
    word_count: 30,
    issue_count: 4,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    html: text
      .split('\n')
      .map((l) => `<p>${l}</p>`)
      .join(''),
    text,
    issues: [
      issue(text, '在次', 0, '再次', '1'),
      issue(text, '积', 0, '绩', '5'),
      issue(text, '的', 20, '得', '3'),
      issue(text, '在次', 25, '再次', '1'),
    ],
    fixes: [],
    ignored: [],
    edited: false,
    share_id: null,
    read_only: false,
  } as DocumentDetail;
}

function start(doc = detail()) {
  const saved: SaveBody[] = [];
  const actor = createActor(
    documentEditorMachine.provide({
      actors: {
        load: fromPromise(async () => doc),
        save: fromPromise(async ({ input }: { input: SaveBody }) => {
          saved.push(input);
          return {
            ...doc,
            text: input.text,
            fixes: input.fixes,
            ignored: input.ignored,
            edited: true,
            status: 'queued',
          } as DocumentDetail;
        }),
      },
    }),
    { input: { id: 7 } },
  );
  actor.start();
  return { actor, saved };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

function assertConsistent(c: DocumentEditorContext) {
  for (const f of c.findings) expect(c.text.slice(f.start, f.end)).toBe(f.original);
  for (const x of c.fixes) expect(c.text.slice(x.start, x.end)).toBe(x.replacement);
  for (const x of c.ignored) expect(c.text.slice(x.start, x.end)).toBe(x.original);
  // ids are unique
  expect(new Set(c.findings.map((f) => f.id)).size).toBe(c.findings.length);
}

describe('document editor machine', () => {
  it('accepts, accepts all of a kind, ignores all, and saves fixes that match the saved text', async () => {
    const { actor, saved } = start();
    await settle();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    const c0 = actor.getSnapshot().context;
    expect(c0.findings.map((f) => f.original)).toEqual(['在次', '积', '的', '在次']);
    actor.send({ type: 'accept', id: c0.findings[1].id });
    actor.send({ type: 'accept all of kind', id: actor.getSnapshot().context.findings[0].id });
    let c = actor.getSnapshot().context;
    expect(c.text).toBe('关于召开会议的通知\n我们再次见面，他的成绩很好。\n他跑的很快，我们再次讨论。');
    expect(c.fixes.map((f) => `${f.original}>${f.replacement}`)).toEqual(['在次>再次', '积>绩', '在次>再次']);
    actor.send({ type: 'ignore all', id: c.findings[0].id });
    c = actor.getSnapshot().context;
    expect(c.findings).toEqual([]);
    expect(c.ignored).toEqual([{ start: 27, end: 28, original: '的' }]);
    assertConsistent(c);
    actor.send({ type: 'save requested' });
    await settle();
    expect(saved).toHaveLength(1);
    expect(saved[0].text).toBe(c.text);
    expect(saved[0].fixes).toEqual(c.fixes);
    expect(actor.getSnapshot().context.dirty).toBe(false);
    // the re-check of the saved text ends: the document is loaded again
    actor.send({
      type: 'server message',
      message: {
        type: 2,
        cmd: 1,
        status: 200,
        index: 1,
        data: { id: 7, status: 'done', progress: 100, issue_count: 0 },
      },
    });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await settle();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.stop();
  });

  it(
    'keeps findings, fixes and ignored findings on their characters through random ' + 'edits (300 sequences)',
    async () => {
      let seed = 1234;
      const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
      for (let run = 0; run < 300; run++) {
        const { actor } = start();
        await settle();
        for (let step = 0; step < 12; step++) {
          const c = actor.getSnapshot().context;
          const choice = rand(4);
          if (choice === 0 && c.findings.length)
            actor.send({ type: 'accept', id: c.findings[rand(c.findings.length)].id });
          else if (choice === 1 && c.findings.length)
            actor.send({ type: 'ignore', id: c.findings[rand(c.findings.length)].id });
          else {
            // a hand edit: insert, delete or replace somewhere (also across a line break)
            // half of the edits at a finding's, fix's or ignored finding's edge (±1), where mistakes would show
            const edges = [...c.findings, ...c.fixes, ...c.ignored].flatMap((r) => [
              r.start - 1,
              r.start,
              r.start + 1,
              r.end - 1,
              r.end,
              r.end + 1,
            ]);
            const near = edges.filter((e) => e >= 0 && e <= c.text.length);
            const at = near.length && rand(2) ? near[rand(near.length)] : rand(c.text.length + 1);
            const len = rand(4);
            const insert = ['', '啊', '\n', '新的句子。'][rand(4)];
            actor.send({
              type: 'text edited',
              text: c.text.slice(0, at) + insert + c.text.slice(Math.min(c.text.length, at + len)),
            });
          }
          assertConsistent(actor.getSnapshot().context);
        }
        actor.stop();
      }
    },
  );

  it('a shared document is read-only: nothing changes and nothing is saved', async () => {
    const doc = { ...detail(), read_only: true } as DocumentDetail;
    const saved: SaveBody[] = [];
    const actor = createActor(
      documentEditorMachine.provide({
        actors: {
          load: fromPromise(async ({ input }: { input: { id: number | null; shareId: string | null } }) => {
            expect(input.shareId).toBe('share-abcdefgh');
            return doc;
          }),
          save: fromPromise(async ({ input }: { input: SaveBody }) => {
            saved.push(input);
            return doc;
          }),
        },
      }),
      { input: { shareId: 'share-abcdefgh' } },
    );
    actor.start();
    await settle();
    const before = actor.getSnapshot().context;
    actor.send({ type: 'accept', id: before.findings[0].id });
    actor.send({ type: 'text edited', text: 'x' });
    actor.send({ type: 'save requested' });
    await settle();
    expect(actor.getSnapshot().context.text).toBe(TEXT);
    expect(saved).toEqual([]);
    actor.stop();
  });

  it('a failed load says why and can be retried', async () => {
    let attempts = 0;
    const actor = createActor(
      documentEditorMachine.provide({
        actors: {
          load: fromPromise(async () => {
            if (++attempts === 1) throw new Error('网络连接失败');
            return detail();
          }),
        },
      }),
      { input: { id: 7 } },
    );
    actor.start();
    await settle();
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('网络连接失败');
    actor.send({ type: 'reload' });
    await settle();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.stop();
  });
});
