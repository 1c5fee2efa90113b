/**
 * The AI writing functions (GET /gpt/v1/chat/function) and the prompt each one sends. The model is asked for the
 * result's text alone, so what streams to the page can be proofread and inserted as it is.
 */
import type { ChatMessage } from './provider';

/** The fields an official-document draft asks for (the contract's `fields` of a run). */
export type FieldKey = 'title' | 'issuer' | 'recipient';

export interface FieldSpec {
  key: FieldKey;
  label: string;
  required: boolean;
}

export interface WritingFunction {
  id: string;
  name: string;
  description: string;
  placeholder: string;
  /** the official-document drafts: a few fields besides the main points (`content`) */
  fields?: FieldSpec[];
  /** the instruction placed before the user's text */
  instruction: (fields: Partial<Record<FieldKey, string>>, today: string) => string;
}

const DOCUMENT_FIELDS: FieldSpec[] = [
  { key: 'title', label: '事由（标题）', required: true },
  { key: 'issuer', label: '发文机关', required: true },
  { key: 'recipient', label: '主送机关', required: false },
];

const officialDocument =
  (kind: string, purpose: string) => (fields: Partial<Record<FieldKey, string>>, today: string) =>
    [
      `请按 GB/T 9704《党政机关公文格式》起草一份${kind}（${purpose}）。`,
      `事由：${fields.title ?? ''}；发文机关：${fields.issuer ?? ''}`,
      fields.recipient ? `；主送机关：${fields.recipient}` : '',
      `。成文日期写作${today}。`,
      '依次输出标题、主送机关、正文、发文机关署名和成文日期，每项一行或一段，不加任何说明。要点如下：',
    ].join('');

export const WRITING_FUNCTIONS: readonly WritingFunction[] = [
  {
    id: 'continue',
    name: '续写',
    description: '接着文字往下写一段，保持语气和风格',
    placeholder: '粘贴或写下开头，AI 接着写',
    instruction: () => '请接着下面的文字续写一段（约 200 字），保持原文的语气、人称和风格，不要重复原文：',
  },
  {
    id: 'polish',
    name: '润色',
    description: '修正错别字和语病，使表达准确流畅',
    placeholder: '需要润色的文字',
    instruction: () => '请润色下面的文字：修正错别字和语病，使表达更准确流畅，保持原意，篇幅大致不变：',
  },
  {
    id: 'shorten',
    name: '缩写',
    description: '压缩到一半左右的篇幅，保留要点',
    placeholder: '需要缩写的文字',
    instruction: () => '请把下面的文字缩写到原文一半左右的篇幅，保留全部要点：',
  },
  {
    id: 'expand',
    name: '扩写',
    description: '补充细节和论述，篇幅约为两倍',
    placeholder: '需要扩写的文字',
    instruction: () => '请扩写下面的文字，补充细节和论述，篇幅约为原文的两倍，保持原意：',
  },
  {
    id: 'formal',
    name: '正式语气',
    description: '改写为正式、庄重的书面语',
    placeholder: '需要改写的文字',
    instruction: () => '请把下面的文字改写为正式、庄重的书面语，适合公文或正式报告，保持原意：',
  },
  {
    id: 'summarize',
    name: '摘要',
    description: '用三到五句话概括要点',
    placeholder: '需要概括的文字',
    instruction: () => '请用三到五句话概括下面文字的要点：',
  },
  {
    id: 'titles',
    name: '拟标题',
    description: '为文字拟五个标题',
    placeholder: '需要拟标题的文字',
    instruction: () => '请为下面的文字拟五个标题，每行一个，不加编号和引号：',
  },
  {
    id: 'notice',
    name: '起草通知',
    description: '按公文格式起草通知',
    placeholder: '通知的要点：时间、地点、事项、要求',
    fields: DOCUMENT_FIELDS,
    instruction: officialDocument('通知', '发布、传达要求下级机关执行的事项'),
  },
  {
    id: 'request',
    name: '起草请示',
    description: '按公文格式起草请示',
    placeholder: '请示的事项和理由',
    fields: DOCUMENT_FIELDS,
    instruction: officialDocument('请示', '向上级机关请求指示、批准，一文一事'),
  },
  {
    id: 'report',
    name: '起草报告',
    description: '按公文格式起草报告',
    placeholder: '报告的工作情况、问题和下一步打算',
    fields: DOCUMENT_FIELDS,
    instruction: officialDocument('报告', '向上级机关汇报工作、反映情况，不夹带请示事项'),
  },
  {
    id: 'letter',
    name: '起草函',
    description: '按公文格式起草函',
    placeholder: '商洽、询问或答复的事项',
    fields: DOCUMENT_FIELDS,
    instruction: officialDocument('函', '不相隶属机关之间商洽工作、询问和答复问题'),
  },
];

export function findFunction(id: string): WritingFunction | undefined {
  return WRITING_FUNCTIONS.find((f) => f.id === id);
}

const SYSTEM =
  '你是一名资深的中文编辑和写作助手。只输出结果正文，不要任何解释、前言、结束语或 Markdown 标记；' +
  '用规范的现代汉语和中文全角标点，不编造事实、数字和引文。';

/** The date as a Chinese official document writes it (2026年11月27日). */
export function documentDate(date: Date): string {
  return `${date.getFullYear()}年${date.getMonth() + 1}月${date.getDate()}日`;
}

/** The messages sent for one run: the system prompt, the earlier turns, the instruction with the user's text. */
export function buildMessages(
  fn: WritingFunction,
  input: {
    content: string;
    fields?: Partial<Record<FieldKey, string>>;
    history?: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>;
    lang?: 'cn' | 'hk';
  },
  now: Date,
): ChatMessage[] {
  const system = input.lang === 'hk' ? `${SYSTEM}输出使用繁体中文（香港）。` : SYSTEM;
  return [
    { role: 'system', content: system },
    ...(input.history ?? []).map((m) => ({ role: m.role, content: m.content })),
    { role: 'user', content: `${fn.instruction(input.fields ?? {}, documentDate(now))}\n\n${input.content}` },
  ];
}
