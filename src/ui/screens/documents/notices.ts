import { msg } from '@lingui/core/macro';
import { registerNoticeMessages } from '../../notices';

/**
 * Texts the document screens and machines show (notify() titles, pipeline errors); their catalog id is
 * the Chinese text, so the toaster and the rows translate them (see src/ui/notices.ts). A server msg
 * that is not here shows as it came.
 */
export const DOCUMENT_NOTICE_MESSAGES = [
  msg({
    id: '仅支持 .docx、.pptx、.txt、.md、.doc、.wps 文件',
    message: '仅支持 .docx、.pptx、.txt、.md、.doc、.wps 文件',
  }),
  msg({ id: '文档处理失败', message: '文档处理失败' }),
  msg({ id: '已删除', message: '已删除' }),
  msg({ id: '已保存', message: '已保存' }),
  msg({ id: '分享链接已复制', message: '分享链接已复制' }),
  msg({ id: '已保存到我的文档', message: '已保存到我的文档' }),
  msg({ id: '已加入我的词库', message: '已加入我的词库' }),
  msg({ id: '感谢反馈，我们会尽快改进', message: '感谢反馈，我们会尽快改进' }),
] as const;

registerNoticeMessages(DOCUMENT_NOTICE_MESSAGES);
