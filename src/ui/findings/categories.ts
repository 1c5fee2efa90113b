// Category colours and labels of findings (labels in the reader's language from the engine's table; others from GET
// /misscut/v1/get_all_mistakes_type).
import { CATEGORY_BY_CODE } from '../../../engine/categories';
import type { MistakeTypes } from '../../machines/proofreadCalls';
import type { Locale } from '../i18n';

const PALETTES = ['red', 'orange', 'purple', 'blue', 'teal', 'pink', 'cyan', 'green', 'yellow'] as const;

/** The Chakra palette of a category: by its family (the part before '-'). */
export function paletteOf(category: string): (typeof PALETTES)[number] {
  const family = Number.parseInt(category.split('-')[0], 10);
  if (Number.isFinite(family)) return PALETTES[Math.abs(family - 1) % PALETTES.length];
  let h = 0;
  for (const ch of category) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return PALETTES[Math.abs(h) % PALETTES.length];
}

/** A category's label in a locale from the engine's table (the codes the engine reports), or undefined. */
export function engineCategoryLabel(code: string, locale: Locale): string | undefined {
  return CATEGORY_BY_CODE.get(code)?.[locale];
}

/** code -> label, from category_description entries [code, text, level]. */
export function categoryLabels(types: MistakeTypes | undefined): Map<string, string> {
  const labels = new Map<string, string>();
  for (const entry of types?.category_description ?? []) {
    if (entry[0] !== null && entry[1] !== null) labels.set(String(entry[0]), String(entry[1]));
  }
  return labels;
}
