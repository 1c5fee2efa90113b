import { envelope } from '../errors';
import { currentRules, setRules } from '../domain/guide/rules';
import {
  storedGuide,
  DEFAULT_GUIDE_VERSION,
  guideFor,
  recordGuideView,
  resetGuide,
  setGuide,
} from '../domain/guide/guide';
import { caller, requireOperator, type Operations } from './types';
import { requestLang } from '../domain/locale';

/** The guide (spec §7 GET /wizard/v1/show and /access), the user rules, and the operators' editing of both. */
export const siteOperations: Operations = {
  getWizardV1Show: async (request) => envelope(await guideFor(request.server.db, request)),

  getWizardV1Access: async (request) => {
    const { uid } = await caller(request);
    const type = request.query.type === 1 ? 1 : 2;
    await recordGuideView(request.server.db, uid, request.query.ver, type);
    return envelope(null);
  },

  getAdminV1Guide: async (request) => {
    await requireOperator(request);
    const { guide, custom } = await storedGuide(request.server.db);
    return envelope({ ver: guide.ver, slides: guide.slides, custom });
  },

  putAdminV1Guide: async (request) => {
    await requireOperator(request);
    const guide = await setGuide(request.server.db, request.body);
    request.log.info({ ver: guide.ver, slides: guide.slides.length }, 'guide set');
    return envelope(null, '引导已更新');
  },

  getSiteV1Rules: async (request) => envelope(await currentRules(request.server.db, requestLang(request))),

  putAdminV1Rules: async (request) => {
    await requireOperator(request);
    await setRules(request.server.db, request.body.text);
    return envelope(null, '用户规则已更新');
  },

  deleteAdminV1Guide: async (request) => {
    await requireOperator(request);
    await resetGuide(request.server.db);
    return envelope(null, `引导已恢复为默认（${DEFAULT_GUIDE_VERSION}）`);
  },
};
