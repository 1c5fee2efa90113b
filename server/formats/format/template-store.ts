import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Forms } from '../../domain/locale';

export interface ElementRule {
  label: string;
  font?: string;
  size?: number;
  align?: 'center' | 'left' | 'right' | 'both';
  color?: 'red' | 'black';
  bold?: boolean;
  pattern?: string;
  patternHint?: string;
  firstLineIndentChars?: number;
  indentChars?: number;
  /** the label's and pattern hint's English (check.ts; hk converts the cn ones) */
  i18n?: { en?: { label?: string; patternHint?: string } };
}

export interface FormatTemplate {
  id: number;
  key: string;
  name: string;
  description?: string;
  /** the name's and description's en and hk forms (domain/locale.ts; missing: the fallbacks) */
  i18n?: Forms<{ name: string; description: string }>;
  page?: {
    width: number;
    height: number;
    sizeTolerance: number;
    margins: Record<'top' | 'left' | 'right' | 'bottom', number>;
    marginTolerance: number;
  };
  lineGrid?: {
    label: string;
    exactLineMin: number;
    exactLineMax: number;
    gridLinePitchMin: number;
    gridLinePitchMax: number;
    i18n?: { en?: { label?: string } };
  };
  fontAliases: Record<string, string[]>;
  sizeNames?: Record<string, string>;
  /** colour of every element that names none (GB/T 9704 §5.2.4: black unless stated) */
  textColor?: 'black';
  elements: Record<string, ElementRule>;
  pageNumbers?: { required: boolean; font?: string; size?: number; dashes?: boolean; evenAndOdd?: boolean };
}

const DEFAULT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'templates');

let cache: { dir: string; list: FormatTemplate[] } | undefined;

/** Every template in the directory (one JSON file each; add a file to add a template). */
export function loadTemplates(configured: string | undefined): FormatTemplate[] {
  const dir = configured ?? DEFAULT_DIR;
  if (cache?.dir === dir) return cache.list;
  const list = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as FormatTemplate)
    .filter((t) => Number.isInteger(t.id) && typeof t.name === 'string' && t.elements)
    .sort((a, b) => a.id - b.id);
  cache = { dir, list };
  return list;
}

export const findTemplate = (id: number, dir: string | undefined) => loadTemplates(dir).find((t) => t.id === id);
