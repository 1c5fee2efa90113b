// The finding-card actions shared by the home screen and the document editor: select, accept and ignore
// come from the screen (they move the selection on); the rest are the same on both.
import type { QueryClient } from '@tanstack/react-query';
import { notify } from '../../api/notify';
import { queryKeys } from '../../api/queries';
import * as calls from '../../machines/proofreadCalls';
import type { FindingAction } from './FindingCard';

/** What both the proofreading job and the document editor accept from a finding card. */
export type FindingCardEvent =
  | { type: 'accept all of kind'; id: string }
  | { type: 'ignore all'; id: string }
  | { type: 'word added'; word: string };

/** What the review needs of a finding (text and document findings alike). */
export interface ReviewFinding {
  id: string;
  start: number;
  end: number;
  original: string;
  category: string;
  suggestions: string[];
}

export interface FindingActionContext<F extends ReviewFinding> {
  select(f: F): void;
  accept(f: F, suggestion?: string): void;
  ignore(f: F): void;
  send(event: FindingCardEvent): void;
  clearSelection(): void;
  queryClient: QueryClient;
  /** the checked text (context of a false-alarm report) */
  text: string;
  checkId?: string | null;
}

export async function runFindingAction<F extends ReviewFinding>(
  action: FindingAction,
  f: F,
  suggestion: string | undefined,
  ctx: FindingActionContext<F>,
): Promise<void> {
  if (action === 'select') ctx.select(f);
  else if (action === 'accept') ctx.accept(f, suggestion);
  else if (action === 'ignore') ctx.ignore(f);
  else if (action === 'accept all') {
    ctx.send({ type: 'accept all of kind', id: f.id });
    ctx.clearSelection();
  } else if (action === 'ignore all') {
    ctx.send({ type: 'ignore all', id: f.id });
    ctx.clearSelection();
  } else if (action === 'add word') {
    try {
      await calls.addWord(f.original, 1);
    } catch (error) {
      // already in the dictionary: it is allowed now all the same
      if ((error as { status?: number }).status !== 409) return;
    }
    ctx.send({ type: 'word added', word: f.original });
    notify({ status: 'success', title: '已加入我的词库' });
    void ctx.queryClient.invalidateQueries({ queryKey: queryKeys.dictionary });
  } else if (action === 'false alarm') {
    void calls.reportFeedback({
      action: 'false_alarm',
      original: f.original,
      category: f.category,
      suggestion: f.suggestions[0],
      context: ctx.text.slice(Math.max(0, f.start - 30), Math.min(ctx.text.length, f.end + 30)),
      ...(ctx.checkId ? { check_id: ctx.checkId } : {}),
    });
    notify({ status: 'success', title: '感谢反馈，我们会尽快改进' });
  }
}

/** The finding `direction` away from the selected one, wrapping around; the first (or last) when none is selected. */
export function neighbourFinding<F>(findings: readonly F[], selected: F | null, direction: 1 | -1): F | undefined {
  if (findings.length === 0) return undefined;
  const index = selected ? findings.indexOf(selected) : -1;
  return findings[
    index < 0 ? (direction === 1 ? 0 : findings.length - 1) : (index + direction + findings.length) % findings.length
  ];
}

/** After an accept or ignore of `f`, the id of the finding that took its place among the `rest`, or null. */
export function successorId<F>(findings: readonly F[], f: F, rest: readonly { id: string }[]): string | null {
  const index = findings.indexOf(f);
  return index >= 0 && rest.length ? rest[Math.min(index, rest.length - 1)].id : null;
}
