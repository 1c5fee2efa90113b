import { accountOperations } from './user/account';
import { profileOperations } from './user/profile';
import { portraitOperations } from './user/portrait';
import { systemOperations } from './system';
import { documentOperations } from './document';
import { documentJobOperations } from './document/documents';
import { proofreadOperations } from './proofread';
import { rightsOperations } from './rights';
import { commerceRightsOperations } from './rights/commerce';
import { payOperations } from './pay';
import { dictOperations } from './dict';
import { languagetoolOperations } from './languagetool';
import { apiKeyOperations } from './languagetool/api-key';
import { downloadOperations } from './user/downloads';
import { sharedDictionaryOperations } from './enterprise/dictionaries';
import { sharedWordOperations } from './enterprise/words';
import { teamMemberOperations } from './enterprise/members';
import { leaderOperations } from './enterprise/leaders';
import { couponOperations } from './rights/coupons';
import { websiteOperations } from './website';
import { pdfOperations } from './pdf';
import { imageOperations } from './image';
import { speechOperations } from './speech';
import { gptOperations } from './gpt';
import { siteOperations } from './site';
import { noticeOperations } from './notices';
import { jobOperations } from './system/jobs';
import { wechatOperations } from './user/wechat';
import type { Operations } from './types';

/** Handlers keyed by the contract's operationId; every other operation answers 501. */
export const operations: Operations = {
  ...systemOperations,
  ...accountOperations,
  ...profileOperations,
  ...portraitOperations,
  ...documentOperations,
  ...documentJobOperations,
  ...proofreadOperations,
  ...rightsOperations,
  ...commerceRightsOperations,
  ...payOperations,
  ...dictOperations,
  ...languagetoolOperations,
  ...apiKeyOperations,
  ...downloadOperations,
  ...sharedDictionaryOperations,
  ...sharedWordOperations,
  ...teamMemberOperations,
  ...leaderOperations,
  ...couponOperations,
  ...websiteOperations,
  ...pdfOperations,
  ...imageOperations,
  ...speechOperations,
  ...gptOperations,
  ...siteOperations,
  ...noticeOperations,
  ...jobOperations,
  ...wechatOperations,
};

export const implementedOperations: readonly string[] = Object.keys(operations).sort();
