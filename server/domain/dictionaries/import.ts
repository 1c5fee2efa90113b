import { extname } from 'node:path';
// exceljs is loaded on first use (jszip likewise, through documents/load): the main thread imports this module for
// its routes' small helpers (toCsv, EXPORT_MIME, parseType) and should not carry them until a spreadsheet is read or
// written
const loadExcelJS = async () => (await import('exceljs')).default;
import type { Db } from '../../db';
import { nowIso } from '../../db';
import { deleteImportFailures, findImportFailures, insertImportFailures } from '../../db/repos/dict-import';
import { addWordsIfMissing, findWordKeys, findWords } from '../../db/repos/dictionary-words';
import { AppError, badRequest, tooLarge } from '../../errors';

import { loadJSZip } from '../../formats/documents/load';
import { isZip, unzip } from '../../formats/documents/zip';

/**
 * Import and export of the personal dictionary (spec /dict/v1/*, `down_words_failed_to_upload`).
 *
 * File format (.txt, .csv, .xlsx alike): one entry a row, columns `word`, `type`, `correct`.
 * - `type`: 5 wrong word (`correct` required), 4 sensitive word, 9 key word, 1 allowed word, or their names
 *   (错词, 敏感词, 重点词, 允许词; 錯詞 ...; wrong, sensitive, key, allowed). Empty: the form field `type`.
 * - A first row whose first cell is `word` (or 词语) is a header and skipped; blank rows are skipped.
 * - .txt: columns separated by a tab (or, in a line without tabs, by a comma); .csv: RFC 4180 (quotes);
 *   UTF-8 (with or without BOM), UTF-16 with BOM or GB18030 (what Excel on Chinese Windows saves).
 * - .xlsx: the first worksheet, cells A, B, C.
 * Every row is validated on its own; failures are kept (one record per user, replaced by each import) for
 * the failures file, which has the same columns plus `reason` and `line`, so it can be fixed and re-imported.
 */

export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
export const WORD_MAX = 50;

export interface RawRow {
  line: number;
  word: string;
  type: string;
  correct: string;
}

export interface ImportFailure extends RawRow {
  reason: string;
}

export interface ImportResult {
  total: number;
  added: number;
  failed: number;
  failures: ImportFailure[];
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const EXPORT_MIME = { xlsx: XLSX_MIME, csv: 'text/csv; charset=utf-8' } as const;

const TYPE_NAMES: Record<string, number> = {
  '1': 1,
  '4': 4,
  '5': 5,
  '9': 9,
  允许词: 1,
  允许: 1,
  允許詞: 1,
  允許: 1,
  白名单: 1,
  allowed: 1,
  allow: 1,
  敏感词: 4,
  敏感: 4,
  敏感詞: 4,
  sensitive: 4,
  错词: 5,
  错误词: 5,
  錯詞: 5,
  錯誤詞: 5,
  wrong: 5,
  重点词: 9,
  重点: 9,
  重點詞: 9,
  重點: 9,
  key: 9,
  keyword: 9,
};
export const TYPE_LABEL: Record<number, string> = { 1: '允许词', 4: '敏感词', 5: '错词', 9: '重点词' };

export function parseType(value: string): number | undefined {
  const v = value.trim().toLowerCase().replace(/\.0+$/, '');
  return TYPE_NAMES[v];
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const HEADER_WORDS = new Set(['word', '词语', '詞語', '词', '詞']);

function decodeText(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    try {
      return new TextDecoder('gb18030', { fatal: true }).decode(data);
    } catch {
      throw badRequest('import.encoding');
    }
  }
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. Returns rows with their line numbers. */
export function parseCsv(text: string): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += c;
  }
  if (quoted) throw badRequest('import.csv_quote', { line: rowLine });
  if (cell !== '' || cells.length) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  return rows;
}

function parseTxt(text: string): Array<{ line: number; cells: string[] }> {
  return text
    .split(/\r\n|\n|\r/)
    .map((l, i) => ({ line: i + 1, cells: l.includes('\t') ? l.split('\t') : l.split(/[,，]/) }));
}

async function parseXlsx(data: Buffer): Promise<Array<{ line: number; cells: string[] }>> {
  const disguised = () => badRequest('import.bad_xlsx');
  if (!isZip(data)) throw disguised();
  let parts: Map<string, Buffer>;
  try {
    // The central directory is checked before anything is inflated, and each entry is inflated only up to its
    // declared size: a bomb, or a header that lies about its size, never reaches exceljs's own unzipping.
    parts = unzip(data, { maxEntries: 1000, maxTotalBytes: 60 * 1024 * 1024, maxRatio: 200 });
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 413) throw tooLarge('import.xlsx_too_large');
    throw disguised();
  }
  if (!parts.has('xl/workbook.xml')) throw disguised();
  const JSZip = await loadJSZip();
  const verified = new JSZip();
  for (const [name, body] of parts) verified.file(name, body, { binary: true });
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(await verified.generateAsync({ type: 'arraybuffer', compression: 'STORE' }));
  } catch {
    throw disguised();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  if (sheet.rowCount > IMPORT_MAX_ROWS + 1) throw tooManyRows();
  const rows: Array<{ line: number; cells: string[] }> = [];
  sheet.eachRow({ includeEmpty: false }, (row, n) => {
    rows.push({ line: n, cells: [1, 2, 3].map((i) => row.getCell(i).text ?? '') });
  });
  return rows;
}

const tooManyRows = () => tooLarge('import.too_many_rows', { max: IMPORT_MAX_ROWS });

/** Reads the rows of an import file; 400 for an unsupported, corrupt or disguised file, 413 when too large. */
export async function readImportFile(file: { filename: string; data: Buffer }): Promise<RawRow[]> {
  const ext = extname(file.filename || '').toLowerCase();
  if (!['.txt', '.csv', '.xlsx'].includes(ext)) throw badRequest('import.file_type');
  if (file.data.length > IMPORT_MAX_BYTES)
    throw tooLarge('import.file_too_large', { mb: IMPORT_MAX_BYTES / 1024 / 1024 });
  if (!file.data.length) throw badRequest('upload.empty_file');
  let rows: Array<{ line: number; cells: string[] }>;
  if (ext === '.xlsx') rows = await parseXlsx(file.data);
  else {
    const head = file.data.subarray(0, 8192);
    const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
    if (isZip(file.data) || (!utf16 && head.includes(0))) throw badRequest('document.not_text');
    const text = decodeText(file.data).replace(/^\ufeff/, '');
    if (/[\u0000\ufffd]/.test(text)) throw badRequest('document.not_text');
    rows = ext === '.csv' ? parseCsv(text) : parseTxt(text);
  }
  const out: RawRow[] = [];
  let first = true;
  for (const { line, cells } of rows) {
    const [word = '', type = '', correct = ''] = cells.map((c) => unguard(c.trim()));
    if (!word && !type && !correct) continue;
    if (first && HEADER_WORDS.has(word.toLowerCase())) {
      first = false;
      continue;
    }
    first = false;
    out.push({ line, word, type, correct });
    if (out.length > IMPORT_MAX_ROWS) throw tooManyRows();
  }
  return out;
}

/** Checks every row and adds the good ones; the failures replace the user's previous ones. */
export async function importWords(
  db: Db,
  uid: number,
  filename: string,
  rows: RawRow[],
  defaultType?: number,
): Promise<ImportResult> {
  const existing = new Set((await findWordKeys(db, uid)).map((r) => `${r.type}\u0001${r.word}`));
  const inFile = new Map<string, number>();
  const failures: ImportFailure[] = [];
  const good: Array<{ row: RawRow; word: string; type: number; correct: string | null }> = [];
  for (const row of rows) {
    const fail = (reason: string) => failures.push({ ...row, reason });
    const type = row.type ? parseType(row.type) : defaultType;
    if (!row.word) fail('词语为空 (empty word)');
    else if (CONTROL.test(row.word)) fail('词语含有控制字符 (control characters)');
    else if ([...row.word].length > WORD_MAX) fail(`词语超过 ${WORD_MAX} 个字 (word too long)`);
    else if (type === undefined)
      fail(
        row.type
          ? `类型无效：${row.type}（应为 1、4、5、9 或 允许词、敏感词、错词、重点词）(unknown type)`
          : '缺少类型 (missing type)',
      );
    else if (type === 5 && !row.correct) fail('错词缺少正确写法 (wrong word without correction)');
    else if (type === 5 && CONTROL.test(row.correct)) fail('正确写法含有控制字符 (control characters)');
    else if (type === 5 && [...row.correct].length > WORD_MAX)
      fail(`正确写法超过 ${WORD_MAX} 个字 (correction too long)`);
    else if (type === 5 && row.correct === row.word) fail('正确写法与错词相同 (correction equals the word)');
    else {
      const key = `${type}\u0001${row.word}`;
      if (inFile.has(key)) fail(`与第 ${inFile.get(key)} 行重复 (duplicate of line ${inFile.get(key)})`);
      else if (existing.has(key)) fail('词库中已有该词 (already in the dictionary)');
      else {
        inFile.set(key, row.line);
        good.push({ row, word: row.word, type, correct: type === 5 ? row.correct : null });
      }
    }
  }
  let added = 0;
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < good.length; i += 200) {
      const chunk = good.slice(i, i + 200);
      // A concurrent add of the same word is not an error here: that row becomes a failure below.
      const inserted = await addWordsIfMissing(
        trx,
        chunk.map((g) => ({ uid, word: g.word, type: g.type, correct: g.correct, created_at: now, updated_at: now })),
      );
      added += inserted.length;
      if (inserted.length < chunk.length) {
        const done = new Set(inserted.map((r) => `${r.type}\u0001${r.word}`));
        for (const g of chunk)
          if (!done.has(`${g.type}\u0001${g.word}`))
            failures.push({ ...g.row, reason: '词库中已有该词 (already in the dictionary)' });
      }
    }
    await deleteImportFailures(trx, uid);
    if (failures.length) {
      failures.sort((a, b) => a.line - b.line);
      await insertImportFailures(trx, {
        uid,
        filename: filename.slice(0, 200),
        rows: JSON.stringify(failures),
        created_at: now,
      });
    }
  });
  return { total: rows.length, added, failed: failures.length, failures };
}

/** The rows that failed in the user's last import, or undefined when it had none. */
export async function lastFailures(
  db: Db,
  uid: number,
): Promise<{ filename: string; rows: ImportFailure[] } | undefined> {
  const row = await findImportFailures(db, uid);
  return row ? { filename: row.filename, rows: JSON.parse(row.rows) as ImportFailure[] } : undefined;
}

/**
 * CSV injection: a cell a spreadsheet could run as a formula gets a leading apostrophe, and the import removes it
 * again. OWASP's list of such first characters: = + - @, and tab and carriage return (spreadsheets may drop those
 * and read a formula after them).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const guard = (v: string) => (FORMULA_START.test(v) ? `'${v}` : v);
const unguard = (v: string) => (v.startsWith("'") && FORMULA_START.test(v.slice(1)) ? v.slice(1) : v);

/**
 * RFC 4180 CSV with every cell guarded. Cells holding a semicolon or a tab are quoted too, so a program that also
 * splits fields on those (a semicolon locale, LibreOffice with several separators ticked) keeps `a;=1+1` whole
 * instead of running its second half as a formula.
 */
export function toCsv(rows: Array<Array<string | number | null>>): Buffer {
  const esc = (v: string | number | null) => {
    const s = guard(String(v ?? ''));
    return /[",;\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return Buffer.from(`\ufeff${rows.map((r) => r.map(esc).join(',')).join('\r\n')}\r\n`, 'utf8');
}

export async function toXlsx(
  sheets: Array<{ name: string; rows: Array<Array<string | number | null>>; widths?: number[] }>,
): Promise<Buffer> {
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'proofreading-workbench';
  for (const s of sheets) {
    const sheet = workbook.addWorksheet(s.name);
    s.rows.forEach((r) => sheet.addRow(r.map((v) => v ?? '')));
    s.widths?.forEach((w, i) => (sheet.getColumn(i + 1).width = w));
    if (s.rows.length) sheet.getRow(1).font = { bold: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const HEADER = ['word', 'type', 'correct'];

/** The failures file: the import columns plus the reason and the line, so it can be fixed and re-imported. */
export function failuresCsv(rows: ImportFailure[]): Buffer {
  return toCsv([[...HEADER, 'reason', 'line'], ...rows.map((r) => [r.word, r.type, r.correct, r.reason, r.line])]);
}

/** The whole dictionary in the import format (type as its code), oldest first. */
export async function exportRows(db: Db, uid: number): Promise<Array<Array<string | number | null>>> {
  const rows = await findWords(db, uid);
  return [HEADER, ...rows.map((r) => [r.word, Number(r.type), r.correct ?? ''])];
}

const TEMPLATE_ROWS: Array<Array<string | number>> = [
  HEADER,
  ['萍果', 5, '苹果'],
  ['按装', '错词', '安装'],
  ['某敏感词', 4, ''],
  ['重点项目', 9, ''],
  ['张三丰', 1, ''],
];

const TEMPLATE_HELP: Array<Array<string>> = [
  ['列 column', '说明 meaning'],
  ['word', '词语（必填，最多 50 字）/ the word (required, at most 50 characters)'],
  [
    'type',
    '类型：5 错词、4 敏感词、9 重点词、1 允许词（不报错），也可写中文名称 / 5 wrong word, 4 sensitive, 9 key word, 1 allowed word',
  ],
  ['correct', '正确写法（类型 5 必填）/ the right form (required for type 5)'],
  ['', '第一行为表头，可以保留；一次最多导入 10000 行、2 MB / the first row is a header; at most 10,000 rows and 2 MB'],
];

export async function template(format: 'xlsx' | 'csv'): Promise<Buffer> {
  if (format === 'csv') return toCsv(TEMPLATE_ROWS);
  return toXlsx([
    { name: '词库', rows: TEMPLATE_ROWS, widths: [20, 10, 20] },
    { name: '说明', rows: TEMPLATE_HELP, widths: [12, 90] },
  ]);
}
