import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** The writing functions' names in the reader's language (the server names them in Chinese). */
export const FUNCTION_LABELS: Record<string, MessageDescriptor> = {
  continue: msg`续写`,
  polish: msg`润色`,
  shorten: msg`缩写`,
  expand: msg`扩写`,
  formal: msg`正式语气`,
  summarize: msg`摘要`,
  titles: msg`拟标题`,
  notice: msg`起草通知`,
  request: msg`起草请示`,
  report: msg`起草报告`,
  letter: msg`起草函`,
};

/** The official-document fields' labels. */
export const FIELD_LABELS: Record<string, MessageDescriptor> = {
  title: msg`事由（标题）`,
  issuer: msg`发文机关`,
  recipient: msg`主送机关`,
};
