/**
 * The pages of one PDF check, read and checked: pages are read a batch at a time in the heavy pool (the next batch
 * while this one is checked), every page of a batch goes to the shared checker pool at once (the pool bounds how
 * many run, round-robin with other checks), scans are read by OCR first, and the checked pages are stored in page
 * order a batch per write, with the owner told at most once per `progressIntervalMs` (the first page at once).
 */
import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import { checkLanguage } from '../../../engine/script';
import type { PdfProgressData } from '../../../openapi/socket-protocol';
import { nowIso } from '../../db';
import { savePdfPages } from '../../db/repos/pdf-checks';
import type { PdfPagesTable } from '../../db/schema';
import { checkService, splitUnits, type PreparedCheck } from '../../workers/checker/jobs';
import type { RunOptions } from '../../workers/heavy/pool';
import { ocrParts, readStrips } from '../ocr/read';
import { OCR_DPI } from '../ocr/strips';
import type { OcrText } from '../ocr/tesseract';
import { countChars } from '../../domain/rights/ledger';
import { JobFailure } from '../../jobs/runner';
import { allUnsure, rectsOf, unsureRanges, withoutUnsure, type PdfIssue } from './checks';
import type { PdfPageText } from './pdfjs';
import { Socket } from '../../../openapi/socket-protocol';

/**
 * Pages read by the first heavy task, so the first findings come soon; each next task reads twice as many up to
 * MAX_PAGES_PER_TASK (the heavy worker keeps the document open between them, see readPdfPages).
 */
const FIRST_PAGES_PER_TASK = 4;
const MAX_PAGES_PER_TASK = 32;
/** Checked pages stored in one write at most, whatever the time since the last. */
const PAGES_PER_WRITE = 50;
/** Scanned pages read by OCR at the same time: each one's strips already keep every heavy worker busy. */
const SCANS_AT_ONCE = 4;
const ALL_STANDARD = 127;
const UNIT_RETRIES = 1;

type Signal = NonNullable<RunOptions['signal']>;

export interface PdfPagesRun {
  app: FastifyInstance;
  id: number;
  uid: number;
  /** the process running the check: pages are stored only while it is still this one's running check */
  owner: string;
  pageCount: number;
  data: Uint8Array;
  /** the check: `aborted` once stopped (cancel, delete, server stop); `onAbort` is set here to stop the reading */
  job: { aborted: boolean; onAbort?: () => void };
  /** least time between two progress messages to the owner (the first checked page is told at once) */
  progressIntervalMs: number;
}

export interface PdfPagesChecked {
  done: number;
  found: number;
  /** pages with text to check (not counting scans read as nothing but unsure marks) */
  textPages: number;
  /** for the team's metrics: the characters read and the category of each finding */
  chars: number;
  categories: Array<{ category: string }>;
}

interface CheckedPage {
  page: PdfPageText;
  unsure: Array<[number, number]> | null;
  issues: PdfIssue[];
}

/** A promise awaited later: its failure is seen there, not reported as unhandled if the check stops before. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * Reads and checks every page of a check, storing them as they are done; null when the check stopped (aborted,
 * or no longer this process's running check). Throws JobFailure or the heavy pool's error when it fails, after
 * storing the pages checked before the failing one.
 */
export async function checkPdfPages(run: PdfPagesRun): Promise<PdfPagesChecked | null> {
  const { app, job, pageCount, data } = run;
  const service = checkService(app);
  // the checker pool group an aborted PDF job cancels (checkerGroup, server/jobs/runner.ts)
  const group = `pdf:${run.id}`;
  // each page is checked in its own script (a PDF's text or a scan says which): prepared once per script
  const preparing = new Map<'cn' | 'hk', Promise<PreparedCheck>>();
  const preparedFor = (text: string) => {
    const lang = checkLanguage(text);
    let prepared = preparing.get(lang);
    if (!prepared) preparing.set(lang, (prepared = later(service.prepare(run.uid, 3, ALL_STANDARD, lang))));
    return prepared;
  };

  /** set once the check stops here (done, failed or aborted): nothing more is started for it */
  let halted = false;
  const stopped = () => halted || job.aborted;
  // every heavy task under way (a batch being read, a scan being drawn or read) stops with the check
  const holders = new Set<Signal>();
  const stopReading = () => holders.forEach((h) => h.onAbort?.());
  const heldBy = async <T>(task: (signal: Signal) => Promise<T>): Promise<T> => {
    const holder: Signal = {};
    holders.add(holder);
    try {
      return await task(holder);
    } finally {
      holders.delete(holder);
    }
  };
  const readBatch = (from: number, to: number) =>
    later(heldBy((signal) => app.heavy.run('pdfPages', { data, from, to }, { background: true, signal })));

  // scans wait their turn in page order
  let scanning = 0;
  const scanTurns: Array<() => void> = [];
  const readScanInTurn = async (page: number): Promise<OcrText> => {
    if (scanning >= SCANS_AT_ONCE) await new Promise<void>((resolve) => scanTurns.push(resolve));
    scanning++;
    try {
      if (stopped()) throw new Error('cancelled');
      return await heldBy((signal) => readScan(app, data, page, signal));
    } finally {
      scanning--;
      scanTurns.shift()?.();
    }
  };

  const checkOne = async (read: PdfPageText): Promise<CheckedPage> => {
    // a page without text is a scan, and so is a page a picture covers with a little text on it (a stamped page
    // number): its text comes from OCR, and what the OCR was unsure of is kept apart
    let page = read;
    let unsure: Array<[number, number]> | null = null;
    if (!read.text.trim() || read.scan) {
      const ocr = await readScanInTurn(read.page);
      page = { ...read, text: ocr.text, boxes: ocr.boxes };
      unsure = unsureRanges(ocr.text, ocr.confidences);
    }
    if (stopped() || !page.text.trim()) return { page, unsure, issues: [] };
    const checked = await checkPage(run, stopped, service, group, await preparedFor(page.text), page);
    return { page, unsure, issues: unsure ? withoutUnsure(checked, unsure) : checked };
  };

  const totals: PdfPagesChecked = { done: 0, found: 0, textPages: 0, chars: 0, categories: [] };
  let pending: Array<Insertable<PdfPagesTable>> = [];
  let written = 0;
  let lastWrite = 0;
  let lastSent = 0;
  /** Stores the pages checked since the last write with the check's progress; false once it is not ours. */
  const write = async (): Promise<boolean> => {
    const rows = pending;
    pending = [];
    const progress = Math.min(99, Math.floor((totals.done / pageCount) * 100));
    const state = { progress, pages_done: totals.done, issue_count: totals.found };
    if (!(await savePdfPages(app.db, run.id, run.owner, rows, { ...state, updated_at: nowIso() }))) return false;
    lastWrite = Date.now();
    if (written++ === 0 || lastWrite - lastSent >= run.progressIntervalMs) {
      lastSent = lastWrite;
      const data: PdfProgressData = { id: run.id, status: 'running', page_count: pageCount, ...state };
      app.realtime.sendToUser(run.uid, { ...Socket.PdfProgress, status: 200, data });
    }
    return true;
  };
  const take = ({ page, unsure, issues }: CheckedPage) => {
    // a scan read as nothing but unsure marks (specks, a picture) has no text to check either
    if (page.text.trim() && !(unsure && allUnsure(page.text, unsure))) totals.textPages++;
    pending.push({
      pdf_id: run.id,
      page: page.page,
      width: page.width,
      height: page.height,
      ocr: unsure ? 1 : 0,
      text: page.text,
      issues: JSON.stringify(issues),
      unsure: unsure && JSON.stringify(unsure),
      image: null,
    });
    totals.done++;
    totals.found += issues.length;
    totals.chars += countChars(page.text);
    for (const issue of issues) totals.categories.push({ category: issue.category });
  };

  job.onAbort = stopReading;
  try {
    let size = FIRST_PAGES_PER_TASK;
    let from = 1;
    let next: Promise<PdfPageText[]> | null = readBatch(from, Math.min(pageCount, size));
    while (next) {
      const pages: PdfPageText[] = await next;
      if (job.aborted) return null;
      from += size;
      size = Math.min(MAX_PAGES_PER_TASK, size * 2);
      next = from <= pageCount ? readBatch(from, Math.min(pageCount, from + size - 1)) : null;
      const checking = pages.map((page) => later(checkOne(page)));
      for (const result of checking) {
        take(await result);
        if (job.aborted) return null;
        const due = pending.length >= PAGES_PER_WRITE || Date.now() - lastWrite >= run.progressIntervalMs;
        if ((written === 0 || due) && !(await write())) return null;
      }
    }
    if (pending.length && !(await write())) return null;
    return totals;
  } catch (error) {
    halted = true;
    service.cancelGroup(group);
    // the pages before the failing one stay stored, as they would have been one by one
    if (!job.aborted && pending.length) await write();
    throw error;
  } finally {
    // a check that ends early (failed, cancelled, deleted) leaves no reading and no checking behind
    halted = true;
    stopReading();
    if (job.onAbort === stopReading) job.onAbort = undefined;
  }
}

/** A scanned page's text by OCR: drawn and cut in one task, its strips read side by side; boxes in PDF points. */
async function readScan(app: FastifyInstance, data: Uint8Array, page: number, signal: Signal): Promise<OcrText> {
  const { heavy } = app;
  const cut = await heavy.run('pdfOcrCut', { data, page, parts: ocrParts(heavy) }, { background: true, signal });
  const read = await readStrips(heavy, cut, signal);
  const scale = 72 / OCR_DPI;
  return { ...read, boxes: read.boxes.map((v) => v * scale) };
}

/** Findings of one page with the boxes of their characters. */
async function checkPage(
  run: PdfPagesRun,
  stopped: () => boolean,
  service: ReturnType<typeof checkService>,
  group: string,
  prepared: PreparedCheck,
  page: PdfPageText,
): Promise<PdfIssue[]> {
  const units = splitUnits(page.text);
  const lists = await Promise.all(
    units.map(async (unit) => {
      for (let attempt = 0; ; attempt++) {
        try {
          const issues = await service.checkUnit(prepared, unit, group);
          return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
        } catch (error) {
          if (stopped()) return [];
          if (attempt >= UNIT_RETRIES) {
            run.app.log.warn({ err: error, pdf: run.id, page: page.page }, 'pdf page not checked');
            throw new JobFailure('pdf.page_failed', { page: page.page });
          }
        }
      }
    }),
  );
  return lists
    .flat()
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((i) => ({ ...i, rects: rectsOf(page, i.start, i.end) }));
}
