// The compare and format-report views in the simulated DOM, fed with real results of the server's compare and format
// check (no fake data): pieces and folds of the side-by-side view, navigation by buttons and keys, the
// report's grouping by location and its severity filter; and both screens' empty states in the app.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nProvider } from '@lingui/react';
import { AlignmentType, Document, Packer, Paragraph, TextRun } from 'docx';
import type { ReactNode } from 'react';
import { compareParagraphs } from '../../server/formats/diff/compare';
import { checkFormat } from '../../server/formats/format/check';
import { parseDocx } from '../../server/formats/format/resolver';
import { loadTemplates } from '../../server/formats/format/template-store';
import { unzip } from '../../server/formats/documents/zip';
import type { CompareResult } from '../../src/machines/compareCalls';
import type { FormatReport } from '../../src/machines/formatCalls';
import { activateLocale, i18n } from '../../src/ui/i18n';
import { system } from '../../src/ui/system';
import { DiffView } from '../../src/ui/screens/diff/DiffView';
import { foldEqualRuns, piecesOf, sideBySide, stepChange } from '../../src/ui/screens/diff/diffModel';
import { FormatReportView, groupViolations } from '../../src/ui/screens/format/FormatReportView';
import { accepts } from '../../src/ui/upload/FileDrop';
import { renderApp } from './helpers';

afterEach(cleanup);

function wrap(children: ReactNode) {
  activateLocale('cn');
  return render(
    <ChakraProvider value={system}>
      <I18nProvider i18n={i18n}>{children}</I18nProvider>
    </ChakraProvider>,
  );
}

const V1 = ['标题', '甲', '乙', '丙', '丁', '戊', '我们定于下周在次召开会议。', '己', '庚', '辛', '壬', '特此通知。'];
const V2 = [
  '标题',
  '甲',
  '乙',
  '丙',
  '丁',
  '戊',
  '我们定于下周再次召开会议。',
  '己',
  '庚',
  '辛',
  '壬',
  '新增的一段话。',
  '特此通知。',
];
const result = (a = V1, b = V2) =>
  ({ original_name: 'v1.docx', revised_name: 'v2.docx', ...compareParagraphs(a, b) }) as CompareResult;

describe('side-by-side model', () => {
  it('cuts a paragraph at its changes, with zero-width markers where the other side has text', () => {
    expect(
      piecesOf('abcdef', 1, 5, [
        { start: 2, end: 3, change: 0 },
        { start: 4, end: 4, change: 1 },
      ]),
    ).toEqual([
      { text: 'b', change: null },
      { text: 'c', change: 0 },
      { text: 'd', change: null },
      { text: '', change: 1, marker: true },
      { text: 'e', change: null },
    ]);
    const rows = sideBySide(result());
    const changed = rows.find((r) => r.status === 'changed')!;
    expect(changed.original!.filter((p) => p.change !== null).map((p) => p.text)).toEqual(['在']);
    expect(changed.revised!.filter((p) => p.change !== null).map((p) => p.text)).toEqual(['再']);
    const inserted = rows.find((r) => r.status === 'inserted')!;
    expect(inserted.original).toBeNull();
    expect(inserted.revised).toEqual([{ text: '新增的一段话。', change: 1 }]);
  });

  it('folds long equal runs but keeps a row of context next to each difference', () => {
    const rows = sideBySide(result());
    const items = foldEqualRuns(rows, 1);
    // 6 equal rows before the change: the first 5 are folded (no context needed at the start), 1 kept
    expect(items[0]).toEqual({ kind: 'fold', from: 0, count: 5 });
    expect(items.filter((i) => i.kind === 'fold')).toHaveLength(2);
    // expanding a fold shows its rows
    expect(foldEqualRuns(rows, 1, new Set([0])).filter((i) => i.kind === 'fold')).toHaveLength(1);
    // a run of two equal rows is never folded
    expect(foldEqualRuns(sideBySide(result(['a', 'b', 'x'], ['a', 'b', 'y'])), 1).every((i) => i.kind === 'row')).toBe(
      true,
    );
  });

  it('steps through the differences and wraps', () => {
    expect(stepChange(0, null, 1)).toBeNull();
    expect(stepChange(3, null, 1)).toBe(0);
    expect(stepChange(3, null, -1)).toBe(2);
    expect(stepChange(3, 2, 1)).toBe(0);
    expect(stepChange(3, 0, -1)).toBe(2);
  });
});

describe('DiffView', () => {
  it('shows counts, highlights and moves between differences with the buttons and the keyboard', async () => {
    wrap(<DiffView result={result()} />);
    expect(screen.getByTestId('diff-change-count').textContent).toBe('共 2 处差异');
    expect(screen.getByTestId('diff-position').textContent).toBe('未选择');
    expect(screen.getAllByTestId('diff-del').map((e) => e.textContent)).toEqual(['在']);
    expect(screen.getAllByTestId('diff-ins').map((e) => e.textContent)).toEqual(['再', '新增的一段话。']);
    fireEvent.click(screen.getByTestId('diff-next'));
    expect(screen.getByTestId('diff-position').textContent).toBe('第 1 / 2 处');
    expect([...document.querySelectorAll('[data-current]')].map((e) => e.textContent)).toEqual(['在', '再']);
    expect(screen.getByTestId('diff-current-summary').textContent).toBe('“在” 改为 “再”');
    act(() => void fireEvent.keyDown(window, { key: 'ArrowDown', altKey: true }));
    expect(screen.getByTestId('diff-position').textContent).toBe('第 2 / 2 处');
    expect(screen.getByTestId('diff-current-summary').textContent).toBe('新增：“新增的一段话。”');
    act(() => void fireEvent.keyDown(window, { key: 'j' }));
    expect(screen.getByTestId('diff-position').textContent).toBe('第 1 / 2 处');
    fireEvent.click(screen.getByTestId('diff-prev'));
    expect(screen.getByTestId('diff-position').textContent).toBe('第 2 / 2 处');
    // j typed into a field is text, not navigation
    const input = document.createElement('input');
    document.body.appendChild(input);
    act(() => void fireEvent.keyDown(input, { key: 'j' }));
    expect(screen.getByTestId('diff-position').textContent).toBe('第 2 / 2 处');
    input.remove();
    // folded equal paragraphs open on demand
    const before = screen.getAllByTestId('diff-row').length;
    fireEvent.click(screen.getAllByTestId('diff-fold')[0]);
    await waitFor(() => expect(screen.getAllByTestId('diff-row').length).toBe(before + 5));
  });

  it('renders long comparisons page by page and brings the chosen difference in', async () => {
    const a = Array.from({ length: 450 }, (_, i) => `第${i}段：请各单位认真贯彻执行。`);
    const b = a.map((p, i) => (i % 2 ? p.replace('认真', '切实') : p));
    const r = result(a, b);
    wrap(<DiffView result={r} />);
    expect(screen.getAllByTestId('diff-row')).toHaveLength(200);
    expect(screen.getByTestId('diff-more').textContent).toBe('显示后面 250 行');
    // the last difference (k from none) lies beyond the first page: its row is rendered and marked
    act(() => void fireEvent.keyDown(window, { key: 'k' }));
    await waitFor(() => expect(document.querySelectorAll('[data-current]').length).toBe(2));
    expect(screen.getByTestId('diff-position').textContent).toBe(`第 ${r.changes.length} / ${r.changes.length} 处`);
    expect(screen.queryByTestId('diff-more')).toBeNull();
  });

  it('says so when the texts are identical', () => {
    wrap(<DiffView result={result(['一样的文字'], ['一样的文字'])} />);
    expect(screen.getByTestId('diff-identical')).toBeTruthy();
    expect((screen.getByTestId('diff-next') as HTMLButtonElement).disabled).toBe(true);
  });
});

async function report(): Promise<FormatReport> {
  const p = (text: string, eastAsia: string, size: number, center = false) =>
    new Paragraph({
      alignment: center ? AlignmentType.CENTER : undefined,
      children: [new TextRun({ text, font: { eastAsia }, size })],
    });
  const buffer = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            p('关于开展安全生产检查的通知', '黑体', 36, true),
            p('各区县人民政府：', '仿宋_GB2312', 32),
            p('为做好安全生产工作，现将有关事项通知如下。', '宋体', 24),
            p('××市人民政府', '仿宋_GB2312', 32),
            p('二〇二四年三月一日', '仿宋_GB2312', 32),
          ],
        },
      ],
    }),
  );
  return checkFormat(parseDocx(unzip(buffer)), loadTemplates(undefined)[0]) as FormatReport;
}

describe('FormatReportView', () => {
  it('groups violations by location (page settings first) and filters by severity', async () => {
    const r = await report();
    const groups = groupViolations(r);
    expect(groups[0].paragraph).toBeNull();
    expect(groups.map((g) => g.paragraph)).toEqual(
      [...groups.map((g) => g.paragraph)].sort((a, b) => (a ?? -1) - (b ?? -1)),
    );
    expect(groups.find((g) => g.paragraph === 0)).toMatchObject({
      element: '标题',
      excerpt: '关于开展安全生产检查的通知',
    });

    wrap(<FormatReportView report={r} fileName="通知.docx" />);
    const errors = r.violations.filter((v) => v.severity === 'error').length;
    expect(screen.getByTestId('format-error-count').textContent).toBe(`错误 ${errors}`);
    const title = document.querySelector('[data-testid="format-group"][data-paragraph="0"]') as HTMLElement;
    expect(title.querySelector('[data-testid="format-group-location"]')!.textContent).toBe('第 1 段');
    const size = title.querySelector('[data-rule="size"]') as HTMLElement;
    expect(size.querySelector('[data-testid="violation-expected"]')!.textContent).toBe('二号 22磅');
    expect(size.querySelector('[data-testid="violation-found"]')!.textContent).toBe('小二 18磅');
    fireEvent.click(screen.getByTestId('format-filter-warning'));
    const shown = screen.queryAllByTestId('format-violation').map((e) => e.getAttribute('data-severity'));
    expect(shown).toEqual(r.violations.filter((v) => v.severity === 'warning').map(() => 'warning'));
    fireEvent.click(screen.getByTestId('format-filter-error'));
    expect(screen.getAllByTestId('format-violation')).toHaveLength(errors);
  });
});

describe('screens in the app', () => {
  it('accepts files by extension only', () => {
    expect(accepts('.docx,.txt', 'a.DOCX')).toBe(true);
    expect(accepts('.docx', 'a.doc')).toBe(false);
    expect(accepts('.docx', 'docx')).toBe(false);
  });

  it(
    'shows the format screen with its empty state; without templates (the fake API ' +
      'has none) the picker is off and says why',
    async () => {
      renderApp({ path: '/format' });
      await screen.findByTestId('format-empty');
      await screen.findByText('模板列表加载失败，请刷新重试');
      expect(screen.getByTestId('format-drop').getAttribute('aria-disabled')).toBe('true');
    },
  );

  it('enables compare only when both documents are chosen, and swaps them', async () => {
    renderApp({ path: '/diff' });
    await screen.findByTestId('diff-empty');
    const button = screen.getByTestId('diff-compare') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('diff-original-drop-input'), {
      target: { files: [new File(['x'], 'slides.pptx')] },
    });
    expect((await screen.findByTestId('diff-original-drop-refused')).textContent).toContain('slides.pptx');
    fireEvent.change(screen.getByTestId('diff-original-drop-input'), {
      target: { files: [new File(['甲'], 'a.txt')] },
    });
    expect(screen.queryByTestId('diff-original-drop-refused')).toBeNull();
    expect(button.disabled).toBe(true);
    fireEvent.drop(screen.getByTestId('diff-revised-drop'), { dataTransfer: { files: [new File(['乙'], 'b.docx')] } });
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(screen.getByTestId('diff-swap'));
    await waitFor(() => expect(screen.getByTestId('diff-original-drop-name').textContent).toContain('b.docx'));
    expect(screen.getByTestId('diff-revised-drop-name').textContent).toContain('a.txt');
  });

  it('speaks English and Traditional Chinese', async () => {
    renderApp({ path: '/diff', locale: 'en' });
    await screen.findByText('Choose two documents to compare');
    expect(screen.getByTestId('diff-compare').textContent).toContain('Compare');
    cleanup();
    renderApp({ path: '/format', locale: 'hk' });
    await screen.findByText('還沒有檢查結果');
    expect(screen.getByText('格式範本')).toBeTruthy();
  });
});
