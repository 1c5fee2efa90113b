// The job's findings after local edits, accepts, ignores and dictionary additions: offsets stay
// valid, findings outside an edit are kept (shifted), and only changed paragraphs are re-sent.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { ServerMessage } from '../../openapi/socket-protocol';
import {
  carryResultsOver,
  deriveFindings,
  planCheck,
  proofreadJobMachine,
  splitParagraphs,
} from '../../src/machines/proofreadJob';

const TEXT = '他高兴的跑了，在次见面。\n这是第二段。\n我们再次在次出发。';

function checkedActor() {
  const sent: string[] = [];
  const actor = createActor(
    proofreadJobMachine.provide({
      actors: {
        'submit check': fromPromise(async ({ input }) => {
          sent.push(input.text);
          return { check_id: `c${sent.length}` };
        }),
        'cancel check': fromPromise<void, { checkId: string }>(async () => {}),
        'fine right': fromPromise(async () => false),
        'socket messages': fromCallback(() => () => undefined),
      },
      actions: { notify: () => undefined },
    }),
  );
  actor.start();
  return { actor, sent };
}

/** Answers the last submitted text with a finding for every '的跑' and '在次'. */
function answer(actor: ReturnType<typeof checkedActor>['actor'], text: string, checkId: string) {
  const paragraphs = text.split('\n');
  let offset = 0;
  let index = 100;
  paragraphs.forEach((p, i) => {
    const issues = [];
    for (const [needle, at, len, sug, cat] of [
      ['的跑', 0, 1, '地', '3'],
      ['在次', 0, 2, '再次', '1'],
    ] as const) {
      let from = 0;
      for (;;) {
        const k = p.indexOf(needle, from);
        if (k < 0) break;
        issues.push({
          start: offset + k + at,
          end: offset + k + at + len,
          original: needle.slice(at, at + len),
          suggestions: [sug],
          category: cat,
          level: 1,
          message: 'm',
        });
        from = k + 1;
      }
    }
    const message = {
      type: 2,
      cmd: 2,
      status: 200,
      index: index++,
      data: { check_id: checkId, paragraph: i, offset, hash: 'x', done: i === paragraphs.length - 1, issues },
    } as ServerMessage;
    actor.send({ type: 'server message', message });
    offset += p.length + 1;
  });
}

async function tick() {
  await new Promise((r) => setTimeout(r, 0));
}

describe('proofreading job: edits keep offsets valid', () => {
  it('splits paragraphs on newlines with their offsets', () => {
    expect(splitParagraphs('ab\n\ncd').map((p) => [p.start, p.text])).toEqual([
      [0, 'ab'],
      [3, ''],
      [4, 'cd'],
    ]);
  });

  it('streams, accepts, ignores, and re-checks only the changed paragraph', async () => {
    const { actor, sent } = checkedActor();
    actor.send({ type: 'text edited', text: TEXT });
    actor.send({ type: 'check requested' });
    await tick();
    answer(actor, sent[0], 'c1');
    let c = actor.getSnapshot().context;
    expect(actor.getSnapshot().matches({ job: 'done' })).toBe(true);
    expect(c.findings.map((f) => f.original)).toEqual(['的', '在次', '在次']);
    for (const f of c.findings) expect(c.text.slice(f.start, f.end)).toBe(f.original);

    // accepting the first finding changes the text and shifts the rest of the paragraph
    actor.send({ type: 'accept', id: c.findings[0].id });
    c = actor.getSnapshot().context;
    expect(c.text.startsWith('他高兴地跑了')).toBe(true);
    expect(c.findings.map((f) => f.original)).toEqual(['在次', '在次']);
    for (const f of c.findings) expect(c.text.slice(f.start, f.end)).toBe(f.original);

    // typing before a finding shifts it; typing inside one drops it
    actor.send({ type: 'text edited', text: '啊' + c.text });
    c = actor.getSnapshot().context;
    expect(c.findings).toHaveLength(2);
    for (const f of c.findings) expect(c.text.slice(f.start, f.end)).toBe(f.original);
    const inside = c.findings[0].start + 1;
    actor.send({ type: 'text edited', text: c.text.slice(0, inside) + 'X' + c.text.slice(inside) });
    c = actor.getSnapshot().context;
    expect(c.findings.map((f) => f.original)).toEqual(['在次']);

    // only the edited first paragraph is sent again
    actor.send({ type: 'check requested' });
    await tick();
    expect(sent[1]).toBe(c.text.split('\n')[0]);
    answer(actor, sent[1], 'c2');
    c = actor.getSnapshot().context;
    expect(c.findings.map((f) => f.original)).toEqual(['在次']);
    for (const f of c.findings) expect(c.text.slice(f.start, f.end)).toBe(f.original);

    // nothing changed: a re-check sends nothing
    actor.send({ type: 'check requested' });
    await tick();
    expect(sent).toHaveLength(2);
    expect(actor.getSnapshot().matches({ job: 'done' })).toBe(true);
  });

  it('ignore hides one finding, ignore all hides every one of that word, also after re-checks', async () => {
    const { actor, sent } = checkedActor();
    actor.send({ type: 'text edited', text: TEXT });
    actor.send({ type: 'check requested' });
    await tick();
    answer(actor, sent[0], 'c1');
    let c = actor.getSnapshot().context;
    actor.send({ type: 'ignore', id: c.findings[1].id });
    c = actor.getSnapshot().context;
    expect(c.findings.map((f) => f.original)).toEqual(['的', '在次']);
    actor.send({ type: 'ignore all', id: c.findings[1].id });
    expect(actor.getSnapshot().context.findings.map((f) => f.original)).toEqual(['的']);
    actor.send({ type: 'word added', word: '的' });
    c = actor.getSnapshot().context;
    expect(c.findings).toEqual([]);
    // a dictionary change re-checks every paragraph
    expect(planCheck(c.text, c.results).segments).toHaveLength(3);
  });

  it('accept all of a kind replaces every same finding', async () => {
    const { actor, sent } = checkedActor();
    actor.send({ type: 'text edited', text: TEXT });
    actor.send({ type: 'check requested' });
    await tick();
    answer(actor, sent[0], 'c1');
    const c = actor.getSnapshot().context;
    actor.send({ type: 'accept all of kind', id: c.findings[1].id });
    const after = actor.getSnapshot().context;
    expect(after.text).toBe(TEXT.replaceAll('在次', '再次'));
    expect(after.findings.map((f) => f.original)).toEqual(['的']);
    expect(after.text.slice(after.findings[0].start, after.findings[0].end)).toBe('的');
  });

  it('carryResultsOver leaves untouched paragraphs alone', () => {
    const results = {
      [splitParagraphs('ab\ncd')[1].hash]: {
        issues: [{ start: 0, end: 1, original: 'c', suggestions: ['x'], category: '1', level: 1, message: '' }],
        checked: true,
      },
    };
    const next = carryResultsOver('ab\ncd', 'abz\ncd', results);
    expect(next[splitParagraphs('abz\ncd')[1].hash]).toEqual(results[splitParagraphs('ab\ncd')[1].hash]);
    expect(next[splitParagraphs('abz')[0].hash]).toEqual({ issues: [], checked: false });
  });

  it('the findings kept across random edits equal the findings derived from scratch', async () => {
    const { actor, sent } = checkedActor();
    const base = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? '' : `第${i}行他高兴的跑了，在次见面。`)).join(
      '\n',
    );
    actor.send({ type: 'text edited', text: base });
    actor.send({ type: 'check requested' });
    await tick();
    answer(actor, sent[0], 'c1');
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['', 'x', '在次', '\n', '的跑', '好\n好'];
    for (let step = 0; step < 300; step++) {
      const c = actor.getSnapshot().context;
      const at = random(c.text.length + 1);
      const cut = Math.min(c.text.length - at, random(4));
      const next = c.text.slice(0, at) + pieces[random(pieces.length)] + c.text.slice(at + cut);
      actor.send({ type: 'text edited', text: next });
      const after = actor.getSnapshot().context;
      const fresh = deriveFindings(after.text, after.results, after.ignoredWords, after.ignoredOnes);
      expect(after.findings.map((f) => [f.id, f.original])).toEqual(fresh.map((f) => [f.id, f.original]));
      for (const f of after.findings) expect(after.text.slice(f.start, f.end)).toBe(f.original);
    }
  });
});
