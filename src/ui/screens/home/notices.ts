import { msg } from '@lingui/core/macro';
import { registerNoticeMessages } from '../../notices';

/**
 * Texts the home screen and the proofreading job emit through notify(); their catalog id is the
 * Chinese text, so the toaster translates them (see src/ui/notices.ts).
 */
export const HOME_NOTICE_MESSAGES = [
  msg({ id: '已复制', message: '已复制' }),
  msg({ id: '复制失败', message: '复制失败' }),
  msg({ id: '已加入我的词库', message: '已加入我的词库' }),
  msg({ id: '感谢反馈，我们会尽快改进', message: '感谢反馈，我们会尽快改进' }),
] as const;

registerNoticeMessages(HOME_NOTICE_MESSAGES);
