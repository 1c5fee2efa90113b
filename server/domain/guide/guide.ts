/**
 * The guide (spec §2 guide modal, GET /wizard/v1/show and /access): a version and its slides, edited by the site's
 * operators (PUT /admin/v1/guide, `admin guide`), the spec's five slides by default with screenshots of this
 * product in both themes (`npm run guide:screenshots` makes them). A user sees a version once: finishing or
 * skipping it is recorded, and a new version shows again.
 */
import { bearerToken, resolveToken } from '../accounts/tokens';
import { nowIso, type Db } from '../../db';
import { deleteSetting, findSetting, putSetting } from '../../db/repos/site-settings';
import { badRequest } from '../../errors';
import type { components } from '../../../openapi/schema';
import type { FastifyRequest } from 'fastify';
import { localizeText, requestLang, type Lang } from '../locale';

export type Guide = components['schemas']['Guide'];
export type GuideSlide = Guide['slides'][number];

/** Spec §9. */
export const DEFAULT_GUIDE_VERSION = '001.001.004';
export const GUIDE_VERSION = /^[0-9]{3}\.[0-9]{3}\.[0-9]{3}$/;
const SETTING = 'guide';

const shots = (id: string) => ({ light: `/workbench/guide/${id}-light.jpg`, dark: `/workbench/guide/${id}-dark.jpg` });

/** The spec's five steps: setup, text proofreading, link proofreading, AI assistant, PDF proofreading. */
export const DEFAULT_SLIDES: GuideSlide[] = [
  {
    id: 'setup',
    title: '欢迎使用智能校对工作台',
    bullets: ['在「我的词库」里添加常用词和易错词，校对时自动生效', '右上角切换界面语言，右下角切换浅色和深色主题'],
    images: shots('setup'),
  },
  {
    id: 'text',
    title: '文本校对',
    bullets: [
      '粘贴或输入文字，点击「开始校对」',
      '错别字、标点、敏感词等问题逐条列出，一键采纳或忽略',
      'Alt+↓ / Alt+↑ 在问题之间切换，Alt+Enter 采纳',
    ],
    images: shots('text'),
  },
  {
    id: 'link',
    title: '网页校对',
    bullets: ['输入网址，检查整个网页或网站的错别字', '结果按页面列出，可导出报告'],
    images: shots('link'),
  },
  {
    id: 'ai',
    title: 'AI 写作助手',
    bullets: ['续写、润色、缩写、扩写，或按公文格式起草通知、请示、报告和函', '生成的文字可一键校对，再插入草稿'],
    images: shots('ai'),
  },
  {
    id: 'pdf',
    title: 'PDF 校对',
    bullets: ['上传 PDF，文字页直接读取，扫描页自动识别文字', '问题在页面上标出位置，可导出带批注的 PDF'],
    images: shots('pdf'),
  },
];

/** The default slides in English, by id (hk: the cn ones in traditional characters). */
const DEFAULT_SLIDES_EN: Record<string, { title: string; bullets: string[] }> = {
  setup: {
    title: 'Welcome to the proofreading workbench',
    bullets: [
      'Add your usual and easily mistaken words under "My dictionary": every check uses them',
      'Switch the interface language at the top right, and the light or dark theme at the bottom right',
    ],
  },
  text: {
    title: 'Text proofreading',
    bullets: [
      'Paste or type your text, then click "Start proofreading"',
      'Typos, punctuation, sensitive words and other issues are listed one by one: accept or ignore each in one click',
      'Alt+↓ / Alt+↑ move between issues; Alt+Enter accepts one',
    ],
  },
  link: {
    title: 'Link proofreading',
    bullets: [
      'Enter an address to check a web page or a whole site for typos',
      'Results are listed by page and can be exported as a report',
    ],
  },
  ai: {
    title: 'AI writing assistant',
    bullets: [
      'Continue, polish, shorten or expand a text, or draft notices, requests, reports and letters in official format',
      'Proofread the generated text in one click, then insert it into your draft',
    ],
  },
  pdf: {
    title: 'PDF proofreading',
    bullets: [
      'Upload a PDF: text pages are read directly, scanned pages by text recognition',
      'Issues are marked on the page, and you can export the PDF with annotations',
    ],
  },
};

/**
 * The guide's texts in `lang`: the default slides have their English; a guide operators wrote is theirs in cn (and
 * en), in traditional characters for hk.
 */
export function localizeGuide(guide: Guide, lang: Lang, builtIn: boolean): Guide {
  if (lang === 'cn') return guide;
  return {
    ...guide,
    slides: guide.slides.map((slide) => {
      const en = builtIn ? DEFAULT_SLIDES_EN[slide.id] : undefined;
      return {
        ...slide,
        title: localizeText(lang, slide.title, { en: en?.title }),
        bullets: slide.bullets.map((b, i) => localizeText(lang, b, { en: en?.bullets[i] })),
      };
    }),
  };
}

// paths on this site only: the Content-Security-Policy lets the page load pictures and video from its own origin
const isUrl = (v: string) => /^\/[^/\\\s][^\s]*$/.test(v);

/** Checks a guide an operator gives; throws 400 with what is wrong. */
export function validateGuide(guide: unknown): Guide {
  const bad = (problem: string) => badRequest('guide.invalid', { problem });
  if (typeof guide !== 'object' || guide === null) throw bad('not an object');
  const { ver, slides } = guide as { ver?: unknown; slides?: unknown };
  if (typeof ver !== 'string' || !GUIDE_VERSION.test(ver)) throw bad('ver must look like 001.001.004');
  if (!Array.isArray(slides) || slides.length < 1 || slides.length > 12) throw bad('1 to 12 slides');
  const out: GuideSlide[] = [];
  const ids = new Set<string>();
  for (const [i, raw] of slides.entries()) {
    const s = raw as Partial<GuideSlide>;
    const at = `slide ${i + 1}`;
    if (typeof s.id !== 'string' || !/^[\w-]{1,40}$/.test(s.id) || ids.has(s.id)) throw bad(`${at}: id`);
    ids.add(s.id);
    if (typeof s.title !== 'string' || !s.title.trim() || s.title.length > 60) throw bad(`${at}: title`);
    if (!Array.isArray(s.bullets) || s.bullets.length > 6) throw bad(`${at}: bullets`);
    if (s.bullets.some((b) => typeof b !== 'string' || !b.trim() || b.length > 120)) throw bad(`${at}: bullets`);
    const slide: GuideSlide = { id: s.id, title: s.title.trim(), bullets: s.bullets.map((b: string) => b.trim()) };
    if (s.video !== undefined) {
      if (typeof s.video !== 'string' || !isUrl(s.video)) throw bad(`${at}: video`);
      slide.video = s.video;
    }
    if (s.images !== undefined) {
      const { light, dark } = s.images ?? {};
      if ((light !== undefined && !isUrl(light)) || (dark !== undefined && !isUrl(dark))) throw bad(`${at}: images`);
      slide.images = { ...(light ? { light } : {}), ...(dark ? { dark } : {}) };
    }
    out.push(slide);
  }
  return { ver, show: true, slides: out };
}

/** The guide as stored, and whether operators stored one (a value broken by hand is the default, still stored). */
export async function storedGuide(db: Db): Promise<{ guide: Guide; custom: boolean }> {
  const row = await findSetting(db, SETTING);
  if (row) {
    try {
      return { guide: validateGuide(JSON.parse(row.value)), custom: true };
    } catch {
      // a value broken by hand falls back to the default rather than breaking every login
    }
  }
  return { guide: { ver: DEFAULT_GUIDE_VERSION, show: true, slides: DEFAULT_SLIDES }, custom: Boolean(row) };
}

/** The guide operators set, or the default. `show` is true here; `guideFor` decides it per user. */
export async function currentGuide(db: Db): Promise<Guide> {
  return (await storedGuide(db)).guide;
}

export async function setGuide(db: Db, guide: unknown): Promise<Guide> {
  const valid = validateGuide(guide);
  await putSetting(db, SETTING, { ver: valid.ver, slides: valid.slides });
  return valid;
}

/** Back to the built-in guide. */
export function resetGuide(db: Db): Promise<void> {
  return deleteSetting(db, SETTING);
}

/**
 * The guide for a caller: `show` is false once a signed-in user finished or skipped this version. The call is
 * public (the guide may show before signing in); a missing or stale token just means "not known".
 */
export async function guideFor(db: Db, request: FastifyRequest): Promise<Guide> {
  const stored = await storedGuide(db);
  // storedGuide hands out the default slides themselves: only they have English forms
  const builtIn = stored.guide.slides === DEFAULT_SLIDES;
  const guide = localizeGuide(stored.guide, requestLang(request), builtIn);
  const token = bearerToken(request);
  const auth = token ? await resolveToken(db, token) : null;
  if (!auth) return guide;
  const seen = await db
    .selectFrom('guide_views')
    .select('type')
    .where('uid', '=', auth.uid)
    .where('ver', '=', guide.ver)
    .executeTakeFirst();
  return { ...guide, show: !seen };
}

/** Records that the user finished (1) or skipped (2) a version; the first answer stays. */
export async function recordGuideView(db: Db, uid: number, ver: string, type: 1 | 2): Promise<void> {
  await db
    .insertInto('guide_views')
    .values({ uid, ver, type, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['uid', 'ver']).doNothing())
    .execute();
}
