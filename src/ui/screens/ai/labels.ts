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

/** What each function does, shown as its button's title. */
export const FUNCTION_DESCRIPTIONS: Record<string, MessageDescriptor> = {
  continue: msg`接着文字往下写一段，保持语气和风格`,
  polish: msg`修正错别字和语病，使表达准确流畅`,
  shorten: msg`压缩到一半左右的篇幅，保留要点`,
  expand: msg`补充细节和论述，篇幅约为两倍`,
  formal: msg`改写为正式、庄重的书面语`,
  summarize: msg`用三到五句话概括要点`,
  titles: msg`为文字拟五个标题`,
  notice: msg`按公文格式起草通知`,
  request: msg`按公文格式起草请示`,
  report: msg`按公文格式起草报告`,
  letter: msg`按公文格式起草函`,
};

/** The hint in the text box of each function. */
export const FUNCTION_PLACEHOLDERS: Record<string, MessageDescriptor> = {
  continue: msg`粘贴或写下开头，AI 接着写`,
  polish: msg`需要润色的文字`,
  shorten: msg`需要缩写的文字`,
  expand: msg`需要扩写的文字`,
  formal: msg`需要改写的文字`,
  summarize: msg`需要概括的文字`,
  titles: msg`需要拟标题的文字`,
  notice: msg`通知的要点：时间、地点、事项、要求`,
  request: msg`请示的事项和理由`,
  report: msg`报告的工作情况、问题和下一步打算`,
  letter: msg`商洽、询问或答复的事项`,
};

/** The official-document fields' labels. */
export const FIELD_LABELS: Record<string, MessageDescriptor> = {
  title: msg`事由（标题）`,
  issuer: msg`发文机关`,
  recipient: msg`主送机关`,
};
