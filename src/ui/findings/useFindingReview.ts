// Reviewing findings on any result screen (text, documents, and the media screens to come): the selection, next and
// previous, accept and ignore with the feedback report, the card actions and the keyboard. The screen's machine
// holds the findings and applies the events; this hook only keeps which one is selected and moves it on.
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLanguage, useSession } from '../app-actor';
import * as calls from '../../machines/proofreadCalls';
import type { MistakeTypes } from '../../machines/proofreadCalls';
import type { FindingAction } from './FindingCard';
import { neighbourFinding, runFindingAction, successorId, type FindingCardEvent, type ReviewFinding } from './actions';
import { categoryLabels, engineCategoryLabel } from './categories';
import type { Locale } from '../i18n';

export type { ReviewFinding };

/** What both the proofreading job and the document editor take from the review. */
export type ReviewEvent = { type: 'accept'; id: string; suggestion?: string } | { type: 'ignore'; id: string };

export interface ReviewOptions<F extends ReviewFinding> {
  findings: readonly F[];
  /** the machine's findings once an event is applied (to find the one that takes the reviewed one's place) */
  current(): readonly F[];
  send(event: ReviewEvent | FindingCardEvent): void;
  /** a read-only screen (a shared document) selects and moves, but accepts and ignores nothing */
  editable: boolean;
  /** shows the selected finding in the text (focus in the editor, scroll to the mark) */
  reveal(f: F): void;
  /** the checked text (a false-alarm report quotes around the finding) */
  text: string;
  checkId?: string | null;
  /** the screen's root: keys act only while it is shown (kept-alive screens are hidden, not unmounted) */
  root: RefObject<HTMLElement | null>;
  /** the screen's own keys (Ctrl+S); true when handled */
  extraKey?(e: KeyboardEvent): boolean;
}

export function useFindingReview<F extends ReviewFinding>(options: ReviewOptions<F>) {
  const { findings, current, send, editable, reveal, text, checkId, root, extraKey } = options;
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = findings.find((f) => f.id === selectedId) ?? null;

  const select = useCallback(
    (f: F | undefined) => {
      if (!f) return;
      setSelectedId(f.id);
      reveal(f);
    },
    [reveal],
  );
  const step = useCallback(
    (direction: 1 | -1) => select(neighbourFinding(findings, selected, direction)),
    [findings, selected, select],
  );
  // after an accept or ignore, move on to the finding that took the reviewed one's place
  const afterAction = useCallback((f: F) => setSelectedId(successorId(findings, f, current())), [findings, current]);
  const accept = useCallback(
    (f: F, suggestion?: string) => {
      if (!editable) return;
      send({ type: 'accept', id: f.id, suggestion });
      void calls.reportFeedback({
        action: 'accept',
        original: f.original,
        category: f.category,
        suggestion: suggestion ?? f.suggestions[0],
        ...(checkId ? { check_id: checkId } : {}),
      });
      afterAction(f);
    },
    [send, checkId, afterAction, editable],
  );
  const ignore = useCallback(
    (f: F) => {
      if (!editable) return;
      send({ type: 'ignore', id: f.id });
      void calls.reportFeedback({
        action: 'ignore',
        original: f.original,
        category: f.category,
        ...(checkId ? { check_id: checkId } : {}),
      });
      afterAction(f);
    },
    [send, checkId, afterAction, editable],
  );

  // the card actions: one stable handler, so unchanged cards are not rendered again while typing
  const handle = (action: FindingAction, f: F, suggestion?: string) =>
    runFindingAction<F>(action, f, suggestion, {
      select,
      accept,
      ignore,
      send,
      clearSelection: () => setSelectedId(null),
      queryClient,
      text,
      checkId,
    });
  const handler = useRef(handle);
  useEffect(() => {
    handler.current = handle;
  });
  const onAction = useCallback(
    (action: FindingAction, f: F, suggestion?: string) => void handler.current(action, f, suggestion),
    [],
  );

  // keyboard: Alt+↓/↑, Alt+Enter and Alt+Backspace anywhere on the screen; j/k and x when the focus is not in a text
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!root.current || root.current.closest('[hidden]')) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      const typing =
        !!target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.isContentEditable);
      const plain = !typing && !e.altKey && !e.ctrlKey && !e.metaKey;
      let handled = true;
      if (e.altKey && e.key === 'ArrowDown') step(1);
      else if (e.altKey && e.key === 'ArrowUp') step(-1);
      else if (e.altKey && e.key === 'Enter' && selected) accept(selected);
      else if (e.altKey && e.key === 'Backspace' && selected) ignore(selected);
      else if (plain && e.key === 'j') step(1);
      else if (plain && e.key === 'k') step(-1);
      else if (plain && e.key === 'x' && selected) ignore(selected);
      else handled = extraKey?.(e) ?? false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step, accept, ignore, selected, root, extraKey]);

  return { selectedId, selected, setSelectedId, select, step, accept, ignore, onAction };
}

/**
 * The category labels in the reader's language: the engine's table for its codes (GET
 * /misscut/v1/get_all_mistakes_type speaks cn or hk only), then the list's, the family's, then the code.
 */
export function useLabelOf(types: MistakeTypes | undefined, locale: Locale = 'cn'): (category: string) => string {
  const labels = useMemo(() => categoryLabels(types), [types]);
  return useCallback(
    (category: string) =>
      engineCategoryLabel(category, locale) ??
      labels.get(category) ??
      labels.get(category.split('-')[0]) ??
      engineCategoryLabel(category.split('-')[0], locale) ??
      category,
    [labels, locale],
  );
}

/**
 * The labels of the finding categories in the reader's language, as every result screen names them: the engine's
 * codes at once, others from the list (fetched once per script and kept), their code until it has arrived.
 */
export function useCategoryLabels(): (category: string) => string {
  const { status: session } = useSession();
  const { locale } = useLanguage();
  const hk = locale === 'hk';
  const types = useQuery({
    queryKey: ['misscut', 'mistakes-types', hk ? 1 : 0],
    queryFn: () => calls.mistakeTypes(hk),
    staleTime: Infinity,
    enabled: session === 'loggedIn',
  });
  return useLabelOf(types.data, locale);
}
