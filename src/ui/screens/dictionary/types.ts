import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { WordType } from '../../../machines/dictCalls';

/** The four kinds of entries (spec §3 result types 5, 4, 9; 1 is the allowed word, never flagged). */
export const TYPE_LABELS: Record<WordType, MessageDescriptor> = {
  5: msg`错词`,
  4: msg`敏感词`,
  9: msg`重点词`,
  1: msg`允许词`,
};

export const TYPE_HINTS: Record<WordType, MessageDescriptor> = {
  5: msg`检查时标出，并给出正确写法`,
  4: msg`检查时作为自定义敏感词标出`,
  9: msg`检查时作为重点词标出`,
  1: msg`从不报错：与它重叠的提示都会去掉`,
};

export const TYPE_COLORS: Record<WordType, string> = { 5: 'red', 4: 'orange', 9: 'blue', 1: 'green' };
