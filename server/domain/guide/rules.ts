/**
 * The user rules page (/rules, spec §2): a text the site's operators edit (PUT /admin/v1/rules, `admin rules`),
 * a built-in one until they do. Plain text: a line starting with `## ` is a heading, a blank line ends a paragraph;
 * the page never renders it as HTML.
 */
import type { Db } from '../../db';
import { deleteSetting, findSetting, putSetting } from '../../db/repos/site-settings';
import { localizeText, type Lang } from '../locale';

const SETTING = 'rules';
export const RULES_MAX = 50_000;

export const DEFAULT_RULES = `## 一、总则
本工作台为用户提供中文文本、文档、网页、图片、音视频的校对服务以及 AI 写作辅助。注册或使用本服务，即表示您同意本规则。

## 二、账号
请使用本人手机号注册，并妥善保管密码。一个账号仅限本人使用，不得出借、转让或出售。发现账号被盗用时，请立即修改密码并联系管理员。

## 三、内容与隐私
您提交校对的文字和文件仅用于完成校对，不会用于其他目的，也不会向第三方提供。您可以随时删除自己的文档和记录；注销账号后，您的数据将被删除。
请勿提交违反法律法规、侵犯他人权益的内容。

## 四、校对结果
校对结果由系统自动生成，供您参考。发布前请结合上下文自行判断；因采纳或未采纳校对建议产生的后果由使用者负责。

## 五、权益与额度
各项权益的额度、有效期以「我的权益」页面显示为准。额度用完后可升级会员或使用兑换码。禁止以脚本、爬虫等方式批量调用服务。

## 六、团队
团队管理员可以邀请成员、分配权益和管理共享词库。成员退出或被移出团队后，团队分配的未用额度退回团队。

## 七、变更
本规则可能随服务调整而更新，更新后在本页公布。继续使用本服务即视为接受更新后的规则。`;

/** The built-in rules in English (hk: the cn text in traditional characters). */
export const DEFAULT_RULES_EN = `## 1. General
This workbench offers proofreading of Chinese text, documents, web pages, images, audio and video, and AI writing \
assistance. By registering for or using the service, you agree to these rules.

## 2. Accounts
Register with your own mobile number and keep your password safe. An account is for its holder only and may not be \
lent, transferred or sold. If you find your account has been used by someone else, change your password at once and \
contact the administrator.

## 3. Content and privacy
The text and files you submit are used only to proofread them: never for any other purpose, and never shared with \
third parties. You can delete your documents and records at any time; when you close your account, your data is \
deleted.
Do not submit content that breaks laws or regulations or infringes the rights of others.

## 4. Proofreading results
Results are generated automatically and are for your reference. Judge them in context before publishing; you are \
responsible for what follows from accepting or not accepting a suggestion.

## 5. Rights and quotas
The amounts and validity of your rights are as shown on the "My rights" page. When a quota runs out, you can upgrade \
or use a redemption code. Calling the service in bulk by scripts, crawlers or similar means is not allowed.

## 6. Teams
Team administrators can invite members, allocate rights and manage shared dictionaries. When a member leaves or is \
removed from a team, the unused amounts the team allocated to them go back to the team.

## 7. Changes
These rules may be updated as the service changes; updates are published on this page. Continuing to use the \
service means you accept the updated rules.`;

export interface Rules {
  text: string;
  updated_at: string | null;
  custom: boolean;
}

/** The rules in `lang`: the built-in ones have their English; rules operators wrote are theirs (hk: converted). */
export async function currentRules(db: Db, lang: Lang = 'cn'): Promise<Rules> {
  const rules = await storedRules(db);
  return { ...rules, text: localizeText(lang, rules.text, rules.custom ? {} : { en: DEFAULT_RULES_EN }) };
}

async function storedRules(db: Db): Promise<Rules> {
  const row = await findSetting(db, SETTING);
  if (!row) return { text: DEFAULT_RULES, updated_at: null, custom: false };
  let text: unknown;
  try {
    text = JSON.parse(row.value);
  } catch {
    text = null;
  }
  return typeof text === 'string' && text.trim()
    ? { text, updated_at: row.updated_at, custom: true }
    : { text: DEFAULT_RULES, updated_at: null, custom: false };
}

/** Sets the rules (already checked: 1 to RULES_MAX characters); line ends become \n. */
export function setRules(db: Db, text: string): Promise<void> {
  return putSetting(db, SETTING, text.replace(/\r\n?/g, '\n').trim());
}

export function resetRules(db: Db): Promise<void> {
  return deleteSetting(db, SETTING);
}
