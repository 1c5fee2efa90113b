/**
 * Subtitle and transcript files as timed segments (SubRip, WebVTT, ASS/SSA, LRC, plain text), and corrected
 * subtitles written back as SubRip or WebVTT. Pure functions: the upload route, the speech tasks and the export use
 * them.
 */
import { extensionOf } from '../documents/load';

export const SUBTITLE_FORMATS = ['srt', 'vtt', 'ass', 'ssa', 'lrc', 'txt'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];

/** One timed piece of a transcript. */
export interface Cue {
  start_ms: number;
  end_ms: number;
  text: string;
}

/** More cues than a two-hour film's subtitles ever have: a larger file is not a subtitle. */
export const MAX_CUES = 50_000;
/** How long the last line of an LRC file lasts when the media's length is not known. */
const LRC_LAST_MS = 5_000;
/** A plain-text transcript without media is timed at a speaking pace of four characters a second. */
const TXT_MS_PER_CHAR = 250;

const isSubtitleFormat = (value: string): value is SubtitleFormat =>
  (SUBTITLE_FORMATS as readonly string[]).includes(value);

/** The format a subtitle file claims by its name, or else shows by its first lines; null when neither. */
export function subtitleFormatOf(filename: string, text: string): SubtitleFormat | null {
  const ext = extensionOf(filename);
  if (isSubtitleFormat(ext)) return ext;
  const head = text.slice(0, 4096);
  if (/^\uFEFF?WEBVTT/.test(head)) return 'vtt';
  if (/^\[Script Info\]/im.test(head) || /^Dialogue:/m.test(head)) return 'ass';
  if (/\d+:\d{2}:\d{2}[,.]\d+\s*-->/.test(head)) return 'srt';
  if (/^\[\d+:\d{2}(?:[.:]\d+)?\]/m.test(head)) return 'lrc';
  return null;
}

/**
 * The cues of a subtitle file, in time order, without markup; blank cues dropped. `durationMs` (the media's, when
 * known) ends the last line of an LRC file and spreads the lines of a plain-text transcript.
 */
export function parseSubtitle(text: string, format: SubtitleFormat, durationMs?: number): Cue[] {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let cues: Cue[];
  if (format === 'srt' || format === 'vtt') cues = parseTimedBlocks(source, format);
  else if (format === 'ass' || format === 'ssa') cues = parseAss(source);
  else if (format === 'lrc') cues = parseLrc(source, durationMs);
  else cues = parseText(source, durationMs);
  return cues
    .filter((c) => c.text.length > 0)
    .map((c) => ({ ...c, end_ms: Math.max(c.start_ms, c.end_ms) }))
    .sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms)
    .slice(0, MAX_CUES);
}

/** `[hh:]mm:ss[,.]fff` in milliseconds; NaN when it is not a time. */
function timeMs(value: string): number {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:[,.:](\d{1,3}))?$/.exec(value.trim());
  if (!m) return NaN;
  const fraction = m[4] ? Number(m[4].padEnd(3, '0')) : 0;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + fraction;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: ' ', quot: '"', apos: "'" };

/** Joins a cue's lines: nothing between two Chinese characters, a space between words. */
function joinLines(lines: string[]): string {
  const wide = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
  let out = '';
  for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
    if (out && !(wide.test(out.at(-1)!) || wide.test(line[0]))) out += ' ';
    out += line;
  }
  return out;
}

function parseTimedBlocks(source: string, format: 'srt' | 'vtt'): Cue[] {
  const cues: Cue[] = [];
  for (const block of source.split(/\n[ \t]*\n/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    if (format === 'vtt' && /^(NOTE|STYLE|REGION)\b/.test(lines[0])) continue;
    const [from, rest] = lines[at].split('-->');
    // WebVTT puts cue settings after the end time
    const start = timeMs(from);
    const end = timeMs((rest ?? '').trim().split(/\s+/)[0] ?? '');
    if (Number.isNaN(start) || Number.isNaN(end)) continue;
    // a tag cannot hold its own opener: with [^>]* a line of many '<' would be scanned to its end from each of them
    let body = lines.slice(at + 1).map((l) => l.replace(/<[^<>]*>/g, '').replace(/\{\\[^{}]*\}/g, ''));
    if (format === 'vtt') body = body.map((l) => l.replace(/&(\w+);/g, (w, n: string) => ENTITIES[n] ?? w));
    cues.push({ start_ms: start, end_ms: end, text: joinLines(body) });
    if (cues.length > MAX_CUES) break;
  }
  return cues;
}

const ASS_DEFAULT_FORMAT = [
  'layer',
  'start',
  'end',
  'style',
  'name',
  'marginl',
  'marginr',
  'marginv',
  'effect',
  'text',
];

function parseAss(source: string): Cue[] {
  const cues: Cue[] = [];
  let section = '';
  let fields = ASS_DEFAULT_FORMAT;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1].toLowerCase();
      continue;
    }
    if (section !== 'events') continue;
    if (/^format:/i.test(line)) {
      fields = line
        .slice(line.indexOf(':') + 1)
        .split(',')
        .map((f) => f.trim().toLowerCase());
      continue;
    }
    if (!/^dialogue:/i.test(line)) continue;
    const values = line.slice(line.indexOf(':') + 1).split(',');
    // the text is the last field and may itself hold commas
    const head = values.slice(0, fields.length - 1);
    const text = values.slice(fields.length - 1).join(',');
    const field = (name: string) => head[fields.indexOf(name)] ?? '';
    const start = timeMs(field('start'));
    const end = timeMs(field('end'));
    if (Number.isNaN(start) || Number.isNaN(end)) continue;
    const lines = text
      .replace(/\{[^{}]*\}/g, '')
      .replace(/\\h/g, ' ')
      .split(/\\[Nn]/);
    cues.push({ start_ms: start, end_ms: end, text: joinLines(lines) });
    if (cues.length > MAX_CUES) break;
  }
  return cues;
}

function parseLrc(source: string, durationMs?: number): Cue[] {
  const starts: Array<{ start: number; text: string }> = [];
  let offset = 0;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    const shift = /^\[offset:\s*([+-]?\d+)\]$/i.exec(line);
    if (shift) {
      // a positive offset shows the lines earlier
      offset = Number(shift[1]);
      continue;
    }
    const stamps = /^((?:\[\d+:\d{2}(?:[.:]\d{1,3})?\])+)(.*)$/.exec(line);
    if (!stamps) continue;
    // enhanced LRC times each word as <mm:ss.xx>
    const text = joinLines([stamps[2].replace(/<\d+:\d{2}(?:[.:]\d{1,3})?>/g, '')]);
    for (const stamp of stamps[1].match(/\[[^\]]+\]/g) ?? []) {
      const start = timeMs(stamp.slice(1, -1));
      if (!Number.isNaN(start)) starts.push({ start: Math.max(0, start - offset), text });
    }
    if (starts.length > MAX_CUES) break;
  }
  starts.sort((a, b) => a.start - b.start);
  // a line lasts until the next one starts (a blank line ends the one before it); the next later start of each,
  // found walking back once (lines sharing a time would make a search forward from each line quadratic)
  const nextStart: Array<number | undefined> = new Array(starts.length);
  for (let i = starts.length - 1, later: number | undefined; i >= 0; i--) {
    nextStart[i] = later;
    if (i > 0 && starts[i - 1].start < starts[i].start) later = starts[i].start;
  }
  return starts.map((s, i) => {
    const next = nextStart[i];
    const end = next ?? (durationMs !== undefined && durationMs > s.start ? durationMs : s.start + LRC_LAST_MS);
    return { start_ms: s.start, end_ms: end, text: s.text };
  });
}

/** A plain transcript: a cue per line, timed by its share of the characters (over the media's length if known). */
function parseText(source: string, durationMs?: number): Cue[] {
  const lines = source
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, MAX_CUES);
  const chars = lines.reduce((n, l) => n + [...l].length, 0);
  const total = durationMs ?? chars * TXT_MS_PER_CHAR;
  let done = 0;
  return lines.map((text) => {
    const start = Math.round((done / Math.max(1, chars)) * total);
    done += [...text].length;
    return { start_ms: start, end_ms: Math.round((done / Math.max(1, chars)) * total), text };
  });
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `hh:mm:ss,fff` (SubRip) or `hh:mm:ss.fff` (WebVTT). */
export function formatTime(ms: number, separator: ',' | '.'): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(t % 1000, 3)}`;
}

/** Cues as a SubRip or WebVTT file. */
export function writeSubtitles(cues: Cue[], format: 'srt' | 'vtt'): string {
  const separator = format === 'srt' ? ',' : '.';
  const blocks = cues.map((c, i) => {
    const times = `${formatTime(c.start_ms, separator)} --> ${formatTime(c.end_ms, separator)}`;
    // a blank line would end the cue early in both formats
    const text = c.text.replace(/\n\s*\n/g, '\n');
    return format === 'srt' ? `${i + 1}\n${times}\n${text}\n` : `${times}\n${text}\n`;
  });
  return (format === 'vtt' ? 'WEBVTT\n\n' : '') + blocks.join('\n');
}

/** A text with the first suggestion of each finding applied (overlapping findings after the first are skipped). */
export function applySuggestions(
  text: string,
  issues: ReadonlyArray<{ start: number; end: number; suggestions: string[] }>,
): string {
  const chosen: Array<{ start: number; end: number; to: string }> = [];
  let reached = 0;
  for (const issue of [...issues].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const to = issue.suggestions[0];
    if (to === undefined || issue.start < reached || issue.end > text.length) continue;
    chosen.push({ start: issue.start, end: issue.end, to });
    reached = Math.max(issue.end, issue.start + 1);
  }
  let out = text;
  for (const c of chosen.reverse()) out = out.slice(0, c.start) + c.to + out.slice(c.end);
  return out;
}
