// The findings of a result grouped by what they are: each kind of finding is one group with one title, so a wrong
// word of the user's dictionary and a sensitive word never share a title (both categories are called 默认).
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** What a finding is, in the order the groups are listed. */
export const FINDING_KINDS = [
  'typo',
  'sensitive',
  'keyword',
  'punctuation',
  'facts',
  'advanced',
  'dictionary-personal',
  'dictionary-team',
] as const;

export type FindingKind = (typeof FINDING_KINDS)[number];

/** The group titles; the dictionary hits are named by the dictionary they come from. */
export const KIND_TITLES: Record<FindingKind, MessageDescriptor> = {
  typo: msg`错别字`,
  sensitive: msg`敏感词`,
  keyword: msg`重点词`,
  punctuation: msg`标点`,
  facts: msg`地址日期`,
  advanced: msg`高级校对`,
  'dictionary-personal': msg`词库命中：我的词库`,
  'dictionary-team': msg`词库命中：共享词库`,
};

/** The colour family of each group (a category code whose palette it shares, see paletteOf). */
export const KIND_CATEGORY: Record<FindingKind, string> = {
  typo: '1',
  sensitive: '8-1',
  keyword: '11',
  punctuation: '10-1',
  facts: '9-1',
  advanced: '12-1',
  'dictionary-personal': '6',
  'dictionary-team': '7',
};

/**
 * The kind of a finding (spec §3): a result `type` of the user's own lists (4 sensitive, 5 wrong word, 9 key word;
 * the word libraries they switched on count as theirs) or of the team's shared ones (6, 7, 10) says it is a dictionary
 * hit; otherwise the category's family: 0-7 typos, 8 sensitive, 9 address and date, 10 punctuation, 11 key words,
 * 12 advanced proofreading (type 11 too).
 */
export function kindOf(finding: { category: string; type?: number }): FindingKind {
  switch (finding.type) {
    case 4:
    case 5:
    case 9:
      return 'dictionary-personal';
    case 6:
    case 7:
    case 10:
      return 'dictionary-team';
    case 3:
      return 'sensitive';
    case 11:
      return 'advanced';
  }
  const family = Number.parseInt(finding.category.split('-')[0], 10);
  if (family === 8) return 'sensitive';
  if (family === 9) return 'facts';
  if (family === 10) return 'punctuation';
  if (family === 11) return 'keyword';
  if (family === 12) return 'advanced';
  return 'typo';
}

export interface FindingGroup<F> {
  /** unique per group: the kind, or `library-<id>` for the hits of a built-in word library */
  key: string;
  kind: FindingKind;
  /** the word library (its id) whose hits the group holds; such a group is named by the library */
  library?: number;
  list: F[];
}

/**
 * The findings by kind, in the order of FINDING_KINDS, then the hits of each word library the user switched on (by
 * its id), each kept in its order; kinds without findings left out.
 */
export function groupFindings<F extends { category: string; type?: number; library?: number }>(
  findings: readonly F[],
): FindingGroup<F>[] {
  const byKey = new Map<string, FindingGroup<F>>();
  for (const f of findings) {
    const kind = kindOf(f);
    const library = kind === 'dictionary-personal' ? f.library : undefined;
    const key = library === undefined ? kind : `library-${library}`;
    const group = byKey.get(key);
    if (group) group.list.push(f);
    else byKey.set(key, { key, kind, ...(library === undefined ? {} : { library }), list: [f] });
  }
  const rank = (g: FindingGroup<F>) =>
    g.library === undefined ? FINDING_KINDS.indexOf(g.kind) : FINDING_KINDS.length + g.library;
  return [...byKey.values()].sort((a, b) => rank(a) - rank(b));
}
