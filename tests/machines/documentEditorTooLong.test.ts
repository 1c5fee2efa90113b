// The document editor's save refused for being over the plan's per-check limit (413 check.too_long {max, total}):
// an explicit state that keeps the edits unsaved and says the limit; an edit or a dismissal goes on editing.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { documentEditorMachine, settled, type SaveBody } from '../../src/machines/documentEditor';
import type { DocumentDetail } from '../../src/machines/documentCalls';

const TEXT = '关于召开会议的通知\n我们再次见面。';
const doc = {
  id: 7,
  name: '通知.docx',
  file_type: 'docx',
  size: 100,
  status: 'done',
  progress: 100,
  word_count: 15,
  issue_count: 0,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
  html: '<p>关于召开会议的通知</p><p>我们再次见面。</p>',
  text: TEXT,
  issues: [],
  fixes: [],
  ignored: [],
  edited: false,
  share_id: null,
  read_only: false,
} as DocumentDetail;

function start() {
  const saved: SaveBody[] = [];
  const actor = createActor(
    documentEditorMachine.provide({
      actors: {
        load: fromPromise(async () => doc),
        save: fromPromise<DocumentDetail, SaveBody>(async ({ input }) => {
          saved.push(input);
          throw Object.assign(new Error('单次最多校对 20 字'), { status: 413, result: { max: 20, total: 25 } });
        }),
      },
    }),
    { input: { id: 7 } },
  );
  actor.start();
  return { actor, saved };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a save over the per-check limit', () => {
  it('waits in tooLong with the limit, edits kept unsaved and no error; an edit goes back to editing', async () => {
    const { actor, saved } = start();
    await settle();
    actor.send({ type: 'text edited', text: TEXT + '\n我们明天再谈这件事。' });
    actor.send({ type: 'save requested' });
    expect(await settled(actor)).toBe(false);
    expect(saved).toHaveLength(1);
    let s = actor.getSnapshot();
    expect(s.matches({ ready: 'tooLong' })).toBe(true);
    expect(s.context).toMatchObject({ tooLong: { max: 20, total: 25 }, dirty: true, error: null });

    actor.send({ type: 'text edited', text: TEXT });
    s = actor.getSnapshot();
    expect(s.matches({ ready: 'idle' })).toBe(true);
    expect(s.context.text).toBe(TEXT);
    expect(s.context.tooLong).toBeNull();
  });

  it('is dismissed back to editing', async () => {
    const { actor } = start();
    await settle();
    actor.send({ type: 'text edited', text: TEXT + '！' });
    actor.send({ type: 'save requested' });
    await settled(actor);
    actor.send({ type: 'too long dismissed' });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.dirty).toBe(true);
  });
});
