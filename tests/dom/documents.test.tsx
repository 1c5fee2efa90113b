// The document list and the editor in the simulated DOM against the in-process fake API: the real app
// machine, upload pipelines and editor machine run; only the transport (fetch, the socket connection)
// is faked. The same flows run against the real server in tests/e2e/documents.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, type FakeHandler } from './helpers';
import { renderDocument } from '../../src/ui/screens/documents/render';

afterEach(cleanup);

const ok = (result: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: 'ok', result }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const fail = (status: number, msg: string) =>
  new Response(JSON.stringify({ code: status, msg, result: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function summary(id: number, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name,
    file_type: name.split('.').pop(),
    size: 2048,
    status: 'done',
    progress: 100,
    word_count: 300,
    issue_count: 3,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...extra,
  };
}

const TEXT = '关于召开会议的通知\n我们在次见面，讨论工作。';
const DETAIL = {
  ...summary(7, '通知.docx'),
  html:
    '<h1>关于召开会议的通知</h1><p>我们<b>在次</b>见面，讨论工作。<script>window.hacked = ' +
    '1</script><img src="x" onerror="window.hacked = 2"></p>',
  text: TEXT,
  issues: [
    {
      start: 12,
      end: 14,
      original: '在次',
      suggestions: ['再次'],
      category: '1',
      level: 1,
      message: '“在次”疑为“再次”的同音误用。',
    },
  ],
  fixes: [],
  ignored: [],
  edited: false,
  share_id: null,
  read_only: false,
};

function documentsApi(initial: ReturnType<typeof summary>[]) {
  let docs = [...initial];
  const handlers: Record<string, FakeHandler> = {
    'GET /misscut/document/v1/page': (r) => {
      const q = new URLSearchParams(r.search);
      const num = Number(q.get('num') ?? 1);
      const size = Number(q.get('size') ?? 20);
      return ok({ list: docs.slice((num - 1) * size, num * size), total: docs.length, num, size });
    },
    'POST /misscut/document/v1/delete': (r) => {
      const ids = (r.body as { ids: number[] }).ids;
      docs = docs.filter((d) => !ids.includes(d.id));
      return ok({ count: ids.length });
    },
  };
  return { handlers, add: (d: ReturnType<typeof summary>) => (docs = [d, ...docs]) };
}

describe('document list', () => {
  it('shows the empty state when there are no documents', async () => {
    renderApp({ path: '/document', handlers: documentsApi([]).handlers });
    expect(await screen.findByTestId('documents-empty')).toBeTruthy();
    expect(screen.getByTestId('upload-button')).toBeTruthy();
  });

  it('lists documents with name, size, status, error count and date; deletes after confirming', async () => {
    const api = documentsApi([
      summary(2, '报告.docx'),
      summary(1, '说明.txt', { status: 'failed', error: '文档已损坏，无法读取', issue_count: 0 }),
    ]);
    const app = renderApp({ path: '/document', handlers: api.handlers });
    const rows = await screen.findAllByTestId('document-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('报告.docx');
    expect(rows[0].textContent).toContain('2.0 KB');
    expect(within(rows[0]).getByTestId('document-status').textContent).toBe('已完成');
    expect(within(rows[0]).getByTestId('document-issues').textContent).toBe('3');
    expect(rows[0].textContent).toMatch(/2026/);
    expect(within(rows[1]).getByTestId('document-status').textContent).toContain('文档已损坏，无法读取');
    expect(screen.getByTestId('documents-total').textContent).toContain('2');

    act(() => fireEvent.click(within(rows[0]).getByTestId('document-delete')));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('报告.docx');
    act(() => fireEvent.click(within(dialog).getByRole('button', { name: '确认' })));
    await waitFor(() => expect(app.server.bodyOf('POST /misscut/document/v1/delete')).toEqual([{ ids: [2] }]));
    await waitFor(() => expect(screen.getAllByTestId('document-row')).toHaveLength(1));
  });

  it('uploads a file with progress: upload, then the check over the socket, then done', async () => {
    const api = documentsApi([]);
    let uploaded: FormData | null = null;
    api.handlers['POST /misscut/document/v1/upload'] = async (_r, raw) => {
      uploaded = await raw.formData();
      const doc = summary(11, '草稿.docx', { status: 'queued', progress: 0, issue_count: 0 });
      api.add(doc);
      return ok(doc);
    };
    const app = renderApp({ path: '/document', handlers: api.handlers });
    await screen.findByTestId('documents-empty');
    // the socket opens with a session id
    await waitFor(() => expect(app.triggers.socket).not.toBe(undefined));
    act(() => {
      app.triggers.socket({ type: 'socket opened' });
      app.triggers.socket({
        type: 'socket message received',
        message: { type: 3, cmd: 1, data: { session_id: 'sess-9' } },
      });
    });
    const input = screen.getByTestId('upload-input') as HTMLInputElement;
    const file = new File(['你好，世界'], '草稿.docx', {
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    act(() => fireEvent.change(input, { target: { files: [file] } }));
    const row = await screen.findByTestId('upload-row');
    await waitFor(() => expect(row.getAttribute('data-phase')).toBe('queued'));
    // (a simulated DOM's File need not survive into Node's FormData intact; the e2e test checks the real upload)
    expect(uploaded!.get('file')).toBeTruthy();
    // checked in the interface's variant of Chinese
    expect(uploaded!.get('lang')).toBe('cn');
    const flag = (status: string, progress: number, issues = 0) =>
      app.triggers.socket({
        type: 'socket message received',
        message: {
          type: 2,
          cmd: 1,
          status: 200,
          index: progress + 1,
          data: { id: 11, status, progress, issue_count: issues },
        } as never,
      });
    act(() => flag('running', 50));
    await waitFor(() => expect(row.getAttribute('data-phase')).toBe('processing'));
    expect(within(row).getByTestId('upload-phase').textContent).toBe('校对中 65%');
    act(() => flag('done', 100, 4));
    await waitFor(() => expect(row.getAttribute('data-phase')).toBe('done'));
    expect(within(row).getByTestId('upload-progress').getAttribute('data-value')).toBe('100');
    // the table shows the new document
    await waitFor(() => expect(screen.getAllByTestId('document-row')).toHaveLength(1));
    act(() => fireEvent.click(within(row).getByTestId('upload-open')));
    await waitFor(() => expect(app.currentPath()).toBe('/editor?id=11'));
  });

  it('says 文档上传失败 for a 413 and refuses unsupported files before uploading', async () => {
    const api = documentsApi([]);
    api.handlers['POST /misscut/document/v1/upload'] = () => fail(413, '文件过大 (file too large)');
    const app = renderApp({ path: '/document', handlers: api.handlers });
    await screen.findByTestId('documents-empty');
    const input = screen.getByTestId('upload-input') as HTMLInputElement;
    act(() => fireEvent.change(input, { target: { files: [new File(['x'], 'setup.exe')] } }));
    await waitFor(() => expect(document.body.textContent).toContain('仅支持 .docx、.pptx、.txt、.md、.doc、.wps 文件'));
    expect(app.server.requests.some((r) => r.path === '/misscut/document/v1/upload')).toBe(false);
    act(() => fireEvent.change(input, { target: { files: [new File(['x'.repeat(10)], '大文件.docx')] } }));
    const row = await screen.findByTestId('upload-row');
    await waitFor(() => expect(row.getAttribute('data-phase')).toBe('failed'));
    expect(within(row).getByTestId('upload-error').textContent).toBe('文档上传失败');
    // the server's own message (e.g. LibreOffice missing for .doc) is shown as it came
    api.handlers['POST /misscut/document/v1/upload'] = () => fail(400, '服务器未安装 LibreOffice，无法读取 .doc 文件');
    act(() => fireEvent.click(within(row).getByTestId('upload-retry')));
    await waitFor(() =>
      expect(within(row).getByTestId('upload-error').textContent).toBe('服务器未安装 LibreOffice，无法读取 .doc 文件'),
    );
  });
});

describe('document screens in en and hk', () => {
  it.each([
    ['en', 'Upload documents', 'No documents yet'],
    ['hk', '上載文件', '還沒有文件'],
  ] as const)('shows the list in %s', async (locale, upload, empty) => {
    renderApp({ path: '/document', locale, handlers: documentsApi([]).handlers });
    expect((await screen.findByTestId('documents-empty')).textContent).toContain(empty);
    expect(screen.getByTestId('upload-button').textContent).toContain(upload);
  });
});

describe('document editor', () => {
  const editorApi = () => {
    const handlers: Record<string, FakeHandler> = {
      'GET /misscut/document/v1/edit_upload_get': () => ok(DETAIL),
      'POST /misscut/document/v1/edit_upload_save': (r) => {
        const body = r.body as { text: string; fixes: unknown[]; ignored: unknown[] };
        return ok({
          ...DETAIL,
          text: body.text,
          html: body.text
            .split('\n')
            .map((l) => `<p>${l}</p>`)
            .join(''),
          issues: [],
          fixes: body.fixes,
          ignored: body.ignored,
          status: 'queued',
          edited: true,
        });
      },
      'GET /misscut/document/v1/get_share_id': () => ok({ share_id: 'Abc123_xyz-Share' }),
    };
    return handlers;
  };

  it('renders the sanitised document with the finding marked in place; accept, save with the fix', async () => {
    const app = renderApp({ path: '/editor?id=7', handlers: editorApi() });
    const view = await screen.findByTestId('document-view');
    // the heading stays a heading; scripts and handlers are gone
    expect(view.querySelector('h1')?.textContent).toBe('关于召开会议的通知');
    expect(view.querySelector('script')).toBeNull();
    expect(view.innerHTML).not.toContain('onerror');
    const mark = view.querySelector('mark[data-finding]') as HTMLElement;
    expect(mark.textContent).toBe('在次');
    expect(mark.closest('p')).not.toBeNull();
    expect(screen.queryByTestId('side-bar')).toBeNull();

    // keyboard: Alt+↓ selects the first finding
    act(() => fireEvent.keyDown(window, { key: 'ArrowDown', altKey: true }));
    await waitFor(() => expect(screen.getByTestId('finding-item').getAttribute('data-selected')).toBe('true'));
    // Alt+Enter accepts it
    act(() => fireEvent.keyDown(window, { key: 'Enter', altKey: true }));
    await waitFor(() => expect(view.querySelector('mark')).toBeNull());
    expect(view.textContent).toContain('我们再次见面');
    expect(screen.getByTestId('editor-unsaved')).toBeTruthy();
    expect(screen.getByTestId('editor-fix-count').textContent).toContain('1');

    act(() => fireEvent.click(screen.getByTestId('editor-save')));
    await waitFor(() => expect(app.server.bodyOf('POST /misscut/document/v1/edit_upload_save')).toHaveLength(1));
    expect(app.server.bodyOf('POST /misscut/document/v1/edit_upload_save')[0]).toEqual({
      id: 7,
      text: '关于召开会议的通知\n我们再次见面，讨论工作。',
      fixes: [
        {
          start: 12,
          end: 14,
          original: '在次',
          replacement: '再次',
          category: '1',
          message: '“在次”疑为“再次”的同音误用。',
        },
      ],
      ignored: [],
    });
    await waitFor(() => expect(screen.queryByTestId('editor-unsaved')).toBeNull());
  });

  it('edits the text by hand, ignores a finding, and shares a read-only link', async () => {
    const app = renderApp({ path: '/editor?id=7', handlers: editorApi() });
    await screen.findByTestId('document-view');
    act(() => fireEvent.click(screen.getByTestId('finding-item')));
    act(() => fireEvent.click(screen.getByTestId('finding-ignore')));
    await waitFor(() => expect(screen.getByTestId('finding-count').textContent).toBe('0'));
    act(() => fireEvent.click(screen.getByTestId('editor-edit-toggle')));
    const area = screen.getByTestId('editor-textarea') as HTMLTextAreaElement;
    expect(area.value).toBe(TEXT);
    act(() => fireEvent.change(area, { target: { value: '紧急：' + TEXT } }));
    act(() => fireEvent.click(screen.getByTestId('editor-save')));
    await waitFor(() => expect(app.server.bodyOf('POST /misscut/document/v1/edit_upload_save')).toHaveLength(1));
    // the ignored finding moved with the edit
    expect(app.server.bodyOf('POST /misscut/document/v1/edit_upload_save')[0]).toMatchObject({
      text: '紧急：' + TEXT,
      ignored: [{ start: 15, end: 17, original: '在次' }],
    });
    act(() => fireEvent.click(screen.getByTestId('editor-share')));
    const link = (await screen.findByTestId('share-link')) as HTMLInputElement;
    expect(link.value).toMatch(/\/workbench\/share-doc\?id=Abc123_xyz-Share$/);
  });

  it('shows a shared document read-only, without a login', async () => {
    const handlers: Record<string, FakeHandler> = {
      'GET /misscut/document/v1/get_share_doc': (r) => {
        expect(new URLSearchParams(r.search).get('share_id')).toBe('Abc123_xyz-Share');
        return ok({ ...DETAIL, read_only: true });
      },
    };
    renderApp({ path: '/share-doc?id=Abc123_xyz-Share', loggedIn: false, handlers });
    const view = await screen.findByTestId('document-view');
    expect(view.querySelector('mark')?.textContent).toBe('在次');
    expect(screen.getByTestId('editor-read-only')).toBeTruthy();
    expect(screen.queryByTestId('editor-save')).toBeNull();
    expect(screen.queryByTestId('share-save')).toBeNull();
    // accepting does nothing in the read-only view
    act(() => fireEvent.keyDown(window, { key: 'ArrowDown', altKey: true }));
    act(() => fireEvent.keyDown(window, { key: 'Enter', altKey: true }));
    expect(view.querySelector('mark')?.textContent).toBe('在次');
  });
});

describe('renderDocument', () => {
  it('falls back to paragraphs when lines were added', () => {
    const out = renderDocument('<h1>标题</h1><p>正文</p>', '标题\n新增\n正文', [
      { id: 'a', start: 3, end: 5, level: 1 },
    ]);
    expect(out.structured).toBe(false);
    expect(out.html).toContain('<mark data-finding="a" data-level="1">新增</mark>');
  });

  it('keeps tables and lists and marks inside their cells', () => {
    const html =
      '<ul><li>第一项</li><li>第二项</li></ul><table><tr><td>甲</td><td>乙丙</td></tr></table>' +
      '<a href="javascript:alert(1)">链接</a>';
    const text = '第一项\n第二项\n甲\n乙丙\n链接';
    const out = renderDocument(html, text, [{ id: 'x', start: 10, end: 12, level: 2 }]);
    expect(out.structured).toBe(true);
    expect(out.html).toContain('<td><span data-line="3"><mark data-finding="x" data-level="2">乙丙</mark></span></td>');
    expect(out.html).toContain('<li><span data-line="0">第一项</span></li>');
    expect(out.html).not.toContain('javascript:');
  });
});
