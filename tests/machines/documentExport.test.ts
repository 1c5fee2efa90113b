// Export and share of an open document (src/machines/documentExport.ts), driven beside a real document editor
// machine whose load and save answer from a fake document store; time runs on XState's simulated clock.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { documentEditorMachine } from '../../src/machines/documentEditor';
import { documentExportMachine, type ExportMode } from '../../src/machines/documentExport';
import { attachmentName, exportFileName, type DocumentDetail } from '../../src/machines/documentCalls';

const TEXT = '关于召开会议的通知\n我们再次见面。';

function detail(patch: Partial<DocumentDetail> = {}): DocumentDetail {
  return {
    id: 7,
    name: '通知.docx',
    file_type: 'docx',
    size: 100,
    status: 'done',
    progress: 100,
    word_count: 14,
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
    ...patch,
  } as DocumentDetail;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
async function settle() {
  for (let k = 0; k < 10; k++) await tick();
}

function start(options: {
  loads?: DocumentDetail[];
  saveFails?: boolean;
  exportFails?: boolean;
  shareFails?: boolean;
  /** the name in the export's Content-Disposition (null: the header did not reach the page) */
  serverName?: string | null;
}) {
  const clock = new SimulatedClock();
  const loads = [...(options.loads ?? [detail()])];
  const calls = { loads: 0, saves: 0, exports: [] as Array<{ id: number; mode: ExportMode }>, shares: 0 };
  const downloads: Array<{ name: string; mode: ExportMode; size: number }> = [];
  let saidSaved = 0;
  const editor = createActor(
    documentEditorMachine.provide({
      actors: {
        load: fromPromise(async () => {
          calls.loads++;
          return loads.length > 1 ? loads.shift()! : loads[0];
        }),
        save: fromPromise(async ({ input }) => {
          calls.saves++;
          if (options.saveFails) throw new Error('保存失败');
          return detail({ text: input.text, status: 'running', edited: true });
        }),
      },
    }),
    { input: { id: 7, shareId: null }, clock },
  );
  editor.start();
  const exporter = createActor(
    documentExportMachine.provide({
      actors: {
        'export document': fromPromise(async ({ input }) => {
          calls.exports.push(input);
          if (options.exportFails) throw new Error('导出失败');
          return { blob: new Blob(['docx']), name: options.serverName ?? null };
        }),
        'share id': fromPromise(async () => {
          calls.shares++;
          if (options.shareFails) throw new Error('系统异常');
          return 'share-abc';
        }),
      },
      actions: {
        download: (_, p) => downloads.push({ name: p.name, mode: p.mode, size: p.blob.size }),
        'say saved': () => saidSaved++,
      },
    }),
    { input: { editor }, clock },
  );
  exporter.start();
  return { clock, editor, exporter, calls, downloads, saidSaved: () => saidSaved };
}

describe('exporting an open document', () => {
  it('exports a saved document at once and downloads it under its name', async () => {
    const t = start({});
    await settle();
    t.exporter.send({ type: 'export requested', mode: 'clean' });
    expect(t.exporter.getSnapshot().context.mode).toBe('clean');
    await settle();
    expect(t.calls.saves).toBe(0);
    expect(t.calls.exports).toEqual([{ id: 7, mode: 'clean' }]);
    expect(t.downloads).toEqual([{ name: '通知.docx', mode: 'clean', size: 4 }]);
    expect(t.exporter.getSnapshot().context.mode).toBeNull();
    expect(t.exporter.getSnapshot().matches({ export: 'idle' })).toBe(true);
  });

  it('saves unsaved changes first and says so; a failed save exports nothing', async () => {
    const ok = start({});
    await settle();
    ok.editor.send({ type: 'text edited', text: TEXT + '补充。' });
    ok.exporter.send({ type: 'export requested', mode: 'clean' });
    await settle();
    expect(ok.calls.saves).toBe(1);
    expect(ok.saidSaved()).toBe(1);
    expect(ok.calls.exports).toEqual([{ id: 7, mode: 'clean' }]);

    const failing = start({ saveFails: true });
    await settle();
    failing.editor.send({ type: 'text edited', text: TEXT + '补充。' });
    failing.exporter.send({ type: 'export requested', mode: 'clean' });
    await settle();
    expect(failing.calls.saves).toBe(1);
    expect(failing.saidSaved()).toBe(0);
    expect(failing.calls.exports).toEqual([]);
    expect(failing.exporter.getSnapshot().context.mode).toBeNull();
  });

  it('waits for the re-check before a tracked export, reloading every 3 s until it has ended', async () => {
    const t = start({ loads: [detail({ status: 'running', edited: true }), detail({ status: 'running' })] });
    await settle();
    t.exporter.send({ type: 'export requested', mode: 'tracked' });
    await settle();
    expect(t.calls.exports).toEqual([]);
    expect(t.exporter.getSnapshot().matches({ export: 'waiting' })).toBe(true);
    const loadsBefore = t.calls.loads;
    t.clock.increment(3000);
    await settle();
    expect(t.calls.loads).toBe(loadsBefore + 1);
    expect(t.calls.exports).toEqual([]);
    // the store still says running: another reload, still nothing exported
    t.clock.increment(3000);
    await settle();
    expect(t.calls.loads).toBe(loadsBefore + 2);
    expect(t.calls.exports).toEqual([]);
  });

  it('exports the tracked version once the reloaded document says done', async () => {
    const t = start({ loads: [detail({ status: 'running', edited: true }), detail({ status: 'done', edited: true })] });
    await settle();
    t.exporter.send({ type: 'export requested', mode: 'tracked' });
    await settle();
    expect(t.calls.exports).toEqual([]);
    t.clock.increment(3000);
    await settle();
    expect(t.calls.exports).toEqual([{ id: 7, mode: 'tracked' }]);
    expect(t.downloads.map((d) => d.mode)).toEqual(['tracked']);
    // the download center's name, never the original's
    expect(t.downloads.map((d) => d.name)).toEqual(['通知（修订）.docx']);
  });

  it('downloads an export under the name the server gave it', async () => {
    const t = start({ serverName: '通知_2（修订）.docx', loads: [detail({ status: 'done' })] });
    await settle();
    t.exporter.send({ type: 'export requested', mode: 'tracked' });
    await settle();
    expect(t.downloads.map((d) => d.name)).toEqual(['通知_2（修订）.docx']);
  });

  it('gives up a tracked export after three minutes without an ended check', async () => {
    const t = start({ loads: [detail({ status: 'running', edited: true })] });
    await settle();
    t.exporter.send({ type: 'export requested', mode: 'tracked' });
    for (let s = 0; s < 60; s++) {
      t.clock.increment(3000);
      await settle();
    }
    expect(t.calls.exports).toEqual([]);
    expect(t.exporter.getSnapshot().context.mode).toBeNull();
    expect(t.exporter.getSnapshot().matches({ export: 'idle' })).toBe(true);
  });

  it('leaves the export after a failed export call', async () => {
    const t = start({ exportFails: true });
    await settle();
    t.exporter.send({ type: 'export requested', mode: 'clean' });
    await settle();
    expect(t.calls.exports).toHaveLength(1);
    expect(t.downloads).toEqual([]);
    expect(t.exporter.getSnapshot().context.mode).toBeNull();
  });
});

describe('sharing an open document', () => {
  it('shows the share id until closed; a failure shows nothing', async () => {
    const t = start({});
    await settle();
    t.exporter.send({ type: 'share requested' });
    await settle();
    expect(t.exporter.getSnapshot().context.shareId).toBe('share-abc');
    t.exporter.send({ type: 'share closed' });
    expect(t.exporter.getSnapshot().context.shareId).toBeNull();

    const failing = start({ shareFails: true });
    await settle();
    failing.exporter.send({ type: 'share requested' });
    await settle();
    expect(failing.calls.shares).toBe(1);
    expect(failing.exporter.getSnapshot().context.shareId).toBeNull();
    expect(failing.exporter.getSnapshot().matches({ share: 'idle' })).toBe(true);
  });
});

describe('the name of an export', () => {
  it('reads the Content-Disposition the server sends, and names like the server without one', () => {
    expect(
      attachmentName(`attachment; filename="___.docx"; filename*=UTF-8''${encodeURIComponent('通知（修订）.docx')}`),
    ).toBe('通知（修订）.docx');
    expect(attachmentName('attachment; filename="report.docx"')).toBe('report.docx');
    expect(attachmentName(null)).toBeNull();
    expect(exportFileName('通知.docx', 'tracked')).toBe('通知（修订）.docx');
    expect(exportFileName('a/b.wps', 'clean')).toBe('a_b.docx');
  });
});
