// The add form (and the inline edit row's fields): word, type, and the correction when the type is 5.
import { useState, type FormEvent } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Field, Flex, Input, NativeSelect } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { WORD_TYPES, type WordType } from '../../../machines/dictCalls';
import { TYPE_HINTS, TYPE_LABELS } from './types';

export const WORD_MAX = 50;

export function TypeSelect({
  value,
  onChange,
  testId,
  label,
  includeAll,
}: {
  value: WordType | 0;
  onChange: (v: WordType | 0) => void;
  testId: string;
  label: string;
  includeAll?: boolean;
}) {
  const { i18n, t } = useLingui();
  return (
    <NativeSelect.Root size="sm" width="auto" minW="28">
      <NativeSelect.Field
        aria-label={label}
        value={value}
        data-testid={testId}
        onChange={(e) => onChange(Number(e.target.value) as WordType | 0)}
      >
        {includeAll ? <option value={0}>{t`全部类型`}</option> : null}
        {WORD_TYPES.map((type) => (
          <option key={type} value={type}>
            {i18n._(TYPE_LABELS[type])}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export interface WordDraft {
  word: string;
  type: WordType;
  correct: string;
}

/** Checks a draft like the server does; returns the message to show, or null. */
export function draftProblem(d: WordDraft): MessageDescriptor | null {
  const word = d.word.trim();
  const max = WORD_MAX;
  if (!word) return msg`请输入词语`;
  if ([...word].length > max) return msg`词语不能超过 ${max} 个字`;
  if (d.type === 5) {
    const correct = d.correct.trim();
    if (!correct) return msg`错词须填写正确写法`;
    if (correct === word) return msg`正确写法不能与错词相同`;
    if ([...correct].length > max) return msg`正确写法不能超过 ${max} 个字`;
  }
  return null;
}

export function AddWordForm({ onAdd, busy }: { onAdd: (d: WordDraft) => Promise<unknown>; busy: boolean }) {
  const { i18n, t } = useLingui();
  const [draft, setDraft] = useState<WordDraft>({ word: '', type: 5, correct: '' });
  const [problem, setProblem] = useState<MessageDescriptor | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = draftProblem(draft);
    setProblem(p);
    if (p) return;
    try {
      await onAdd({ ...draft, word: draft.word.trim(), correct: draft.correct.trim() });
      setDraft((d) => ({ ...d, word: '', correct: '' }));
    } catch {
      // the server's message was shown; the draft stays for a fix
    }
  };
  return (
    <form onSubmit={submit} data-testid="dict-add-form" noValidate>
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root flex="1" minW="40" invalid={!!problem}>
          <Field.Label>
            <Trans>词语</Trans>
          </Field.Label>
          <Input
            size="sm"
            value={draft.word}
            maxLength={WORD_MAX}
            data-testid="dict-add-word"
            onChange={(e) => setDraft({ ...draft, word: e.target.value })}
            placeholder={t`输入要加入词库的词语`}
          />
        </Field.Root>
        <Field.Root width="auto">
          <Field.Label>
            <Trans>类型</Trans>
          </Field.Label>
          <TypeSelect
            value={draft.type}
            label={t`类型`}
            testId="dict-add-type"
            onChange={(v) => setDraft({ ...draft, type: (v || 5) as WordType })}
          />
        </Field.Root>
        {draft.type === 5 ? (
          <Field.Root flex="1" minW="40">
            <Field.Label>
              <Trans>正确写法</Trans>
            </Field.Label>
            <Input
              size="sm"
              value={draft.correct}
              maxLength={WORD_MAX}
              data-testid="dict-add-correct"
              onChange={(e) => setDraft({ ...draft, correct: e.target.value })}
              placeholder={t`检查时给出的建议`}
            />
          </Field.Root>
        ) : null}
        <Button type="submit" size="sm" colorPalette="blue" loading={busy} data-testid="dict-add-submit">
          <Plus size={14} />
          <Trans>添加</Trans>
        </Button>
      </Flex>
      <Field.Root invalid={!!problem} mt="1">
        {problem ? (
          <Field.ErrorText data-testid="dict-add-error">{i18n._(problem)}</Field.ErrorText>
        ) : (
          <Field.HelperText>{i18n._(TYPE_HINTS[draft.type])}</Field.HelperText>
        )}
      </Field.Root>
    </form>
  );
}
