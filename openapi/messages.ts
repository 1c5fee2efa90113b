/**
 * Every error message the server writes, by stable code (the contract, like socket-protocol.ts, typed once for
 * both sides). An error envelope carries the code in `msg_code` and the values of the template's `{name}`
 * placeholders in `msg_params`; `msg` is the template filled in, in the source language. The SPA shows the code
 * through its Lingui catalogues (locales/{en,hk}/server.po, generated from this table by `npm run gen:messages`),
 * so a message reads in the interface's language; a client that knows no code shows `msg`.
 *
 * Codes never change meaning once released: a new wording keeps its code, a new meaning gets a new one.
 * Templates use ICU placeholders only (`{name}`), no plural or select forms, so both sides can fill them.
 */
export const SERVER_MESSAGES = {
  // the request itself
  'request.invalid': '请求参数错误：{field} {problem}',
  'request.malformed_json': '请求体不是有效的 JSON',
  'request.empty_body': '请求体为空',
  'request.body_required': '请求体不能为空，此接口接受 {accepted}',
  'request.body_too_large': '请求体过大',
  'request.unsupported_type': '不支持的内容类型',
  'request.wrong_type': '不支持的内容类型：此接口接受 {accepted}，而不是 {type}',
  'request.bad_length': '请求长度不正确',
  'request.no_route': '接口不存在：{method} {path}',
  'request.file_missing': '文件不存在：{path}',
  'upload.file_too_large': '文件过大',
  'upload.too_many_parts': '上传的部分过多',
  'upload.too_many_files': '上传的文件过多',
  'upload.too_many_fields': '上传的字段过多',
  'upload.not_multipart': '不是有效的 multipart 请求',
  'upload.no_file': '请上传文件',
  'upload.missing_part': '请上传文件：{field}',
  'upload.empty_file': '文件为空',
  'server.internal': '系统异常',
  'server.busy': '服务器繁忙，请 {seconds} 秒后再试',
  'server.unavailable': '该功能尚未开放',

  // sessions, accounts, rate limits
  'auth.expired': '登录已失效，请重新登录',
  'auth.required': '请先登录',
  'auth.wrong_credentials': '手机号或密码错误',
  'auth.wrong_api_key': '用户名或 apiKey 不正确',
  'rate.too_many': '请求过于频繁，请稍后再试',
  'rate.login_phone': '该手机号登录尝试过于频繁，请 {minutes} 分钟后再试',
  'rate.login_address': '登录尝试过于频繁，请 {minutes} 分钟后再试',
  'rate.sms_address': '验证码发送过于频繁，请 {minutes} 分钟后再试',
  'rate.check_account': '校对请求过于频繁：每个账号每 {window} 秒最多 {max} 次，请 {retry} 秒后再试',
  'rate.check_anonymous': '校对请求过于频繁：未登录时每个地址每 {window} 秒最多 {max} 次，请 {retry} 秒后再试',
  'rate.words': '词表请求过于频繁，请 {retry} 秒后再试',
  'rate.words_anonymous': '未登录时词表请求过于频繁，请 {retry} 秒后再试',
  'rate.orders': '下单过于频繁，请稍后再试',
  'lockout.login': '登录失败次数过多，请 {minutes} 分钟后再试',
  'lockout.password': '密码错误次数过多，请 {minutes} 分钟后再试',
  'sms.expired': '验证码已失效，请重新获取',
  'sms.too_many_wrong': '验证码错误次数过多，请重新获取',
  'sms.wrong': '验证码错误',
  'sms.own_phone_only': '验证码只能发送到当前账号绑定的手机号',
  'account.phone_invalid': '手机号格式不正确',
  'account.phone_taken': '该手机号已注册',
  'account.phone_same': '新手机号与当前手机号相同',
  'account.password_or_code': '请输入当前密码或原手机号收到的验证码',
  'account.password_length': '密码长度应为 6-32 位',
  'account.password_blank': '密码不能全是空格',
  'account.password_wrong': '密码错误',
  'account.current_password_wrong': '当前密码错误',
  'account.old_password_wrong': '原密码错误',
  'account.login_id_invalid': '登录账号需以字母开头，4-32 位字母、数字或下划线',
  'account.login_id_taken': '该登录账号已被使用',
  'account.feedback_empty': '留言内容不能为空',
  'account.last_root': '最后一个超级管理员不能注销',
  'account.avatar_too_large': '头像不能超过 2 MB',
  'account.avatar_type': '头像须为 PNG 或 JPEG 图片',
  'account.avatar_no_file': '请上传图片文件',

  // text proofreading
  'check.empty': '文本不能为空',
  'check.no_session': '实时连接未建立或已失效，请刷新页面后重试',
  'check.too_long': '单次校对不能超过{max}字，本次{total}字',
  'check.exhausted': '高速校对字数已用完',
  'check.not_enough': '高速校对字数不足：剩余{available}字，本次需要{needed}字',
  'check.fine_paid_only': '该模型资源消耗较大，暂时只开放给付费用户体验。',
  'check.unknown_job': '校对任务不存在',
  'check.paragraph_failed': '第{paragraph}段校对失败，未扣字数，请稍后重试',

  // documents
  'web.bad_url': '链接无效，请输入完整的网址（如 https://example.com/page）',
  'web.bad_scheme': '只能校对 http 或 https 网页',
  'web.unknown_host': '找不到网站 {host}',
  'web.private_address': '出于安全原因，不能读取内网或本机地址（{host}）',
  'web.timeout': '网页读取超时',
  'web.fetch_failed': '无法连接 {host}',
  'web.too_large': '网页过大，最多 {mb} MB',
  'web.too_many_redirects': '网页跳转次数过多（超过 {max} 次）',
  'web.http_status': '网站返回错误 {status}',
  'web.not_html': '链接不是网页（{type}），只能校对 HTML 或纯文本页面',
  'web.no_text': '网页中没有可校对的文字',
  'web.robots': '网站的 robots.txt 不允许读取此页',
  'pdf.unknown': 'PDF 校对记录不存在或已删除',
  'pdf.encrypted': 'PDF 已加密，请先取消密码保护再上传',
  'pdf.empty': 'PDF 中没有页面',
  'pdf.too_many_pages': 'PDF 页数过多：本文件{pages}页，最多{max}页',
  'pdf.exhausted': 'PDF校对次数已用完',
  'pdf.no_text': 'PDF 中没有可校对的文字',
  'pdf.failed': 'PDF 校对失败，已退回次数，请稍后重试',
  'pdf.interrupted': 'PDF 校对因服务重启中断，已退回次数，请重新上传',
  'pdf.cancelled': '已取消 PDF 校对，已退回次数',
  'pdf.page_failed': '第{page}页校对失败，已退回次数，请稍后重试',
  'pdf.unknown_page': '页码超出范围',
  'pdf.not_running': '这个 PDF 已校对完成或已停止',
  'pdf.not_done': 'PDF 尚未校对完成',
  'image.unknown': '图片校对记录不存在',
  'image.type_unsupported': '不支持的图片格式，请上传 PNG、JPG、WebP、BMP、GIF 或 TIFF 图片',
  'image.heic_unsupported': '暂不支持 HEIC 图片，请在手机相册中导出为 JPG 后上传',
  'image.unreadable': '图片无法读取，文件可能已损坏',
  'image.too_many_pixels': '图片过大，最多 {mp} 百万像素',
  'image.exhausted': '图片校对次数已用完',
  'image.no_text': '图片中没有识别到文字',
  'image.failed': '图片校对失败，已退回次数，请稍后重试',
  'image.interrupted': '图片校对因服务重启中断，已退回次数，请重新上传',
  'image.not_done': '图片尚未识别完成',
  'speech.unknown': '音视频校对记录不存在或已删除',
  'speech.no_ffmpeg': '服务器上没有可用的 ffmpeg，暂时无法处理音频和视频',
  'speech.not_media': '无法读取这个音视频文件：文件已损坏，或内容与扩展名不符',
  'speech.no_sound': '文件中既没有声音也没有字幕，无法校对',
  'speech.too_long': '音视频过长：本文件约{minutes}分钟，最多{max}分钟',
  'speech.subtitle_unreadable': '无法读取字幕文件：支持 {formats}，且需要含有文字',
  'speech.audio_exhausted': '音频校对时长不足：本文件需要{needed}分钟，剩余{available}分钟',
  'speech.video_exhausted': '视频校对时长不足：本文件需要{needed}分钟，剩余{available}分钟',
  'speech.no_asr': '本服务器未配置语音识别，无法把声音转成文字；请同时上传字幕文件（{formats}）。已退回时长',
  'speech.asr_failed': '语音识别失败，已退回时长，请稍后重试',
  'speech.no_speech': '没有识别到可校对的文字，已退回时长',
  'speech.convert_failed': '音视频转换失败，已退回时长',
  'speech.timed_out': '音视频处理超时（超过{seconds}秒），已退回时长',
  'speech.failed': '音视频校对失败，已退回时长，请稍后重试',
  'speech.interrupted': '音视频校对因服务重启中断，已退回时长，请重新上传',
  'speech.not_done': '音视频尚未校对完成',
  'speech.no_mp3': '这个任务没有可播放的音频',
  'website.too_many': '同时最多校对{max}个网站，请等正在进行的校对完成',
  'website.unknown': '网站不存在或已删除',
  'website.duplicate': '已添加过这个网址',
  'website.running': '这个网站正在校对，请等本次校对完成',
  'website.no_result': '这个网站还没有校对结果',
  'website.failed': '网站校对失败，未扣字数，请稍后重试',
  'website.interrupted': '网站校对因服务重启中断，未扣字数，请重新校对',
  'website.page_failed': '第{page}页校对失败，未扣字数，请稍后重试',
  'document.unknown': '文档不存在或已删除',
  'document.unknown_share': '分享链接无效或文档已删除',
  'document.share_gone': '分享已失效：文档的所有者已注销账号',
  'document.share_not_done': '分享的文档尚未校对完成，请稍后再保存',
  'document.bad_options': 'checkOptions 无效',
  'document.uploads_exhausted': '文档上传次数已用完',
  'document.ppt_exhausted': 'PPT校对次数已用完',
  'document.too_many_chars': '文档字数超过上限：本文档{chars}字，单个文档最多{max}字',
  'document.not_read_edit': '文档尚未读取完成，请等校对完成后再编辑',
  'document.not_read_export': '文档尚未读取完成，暂不能导出',
  'document.checking_export': '文档正在校对，请等校对完成后再导出修订版',
  'document.content_empty': '文档内容不能为空',
  'document.html_too_large': '文档内容过大，最多 {mb} MB',
  'document.doc_unsupported': '暂不支持 .doc/.wps 文件，请另存为 .docx 后上传',
  'document.type_unsupported': '不支持的文件类型，请上传 {types} 文件',
  'document.executable': '文件内容与扩展名不符：这是一个可执行文件',
  'document.old_doc': '这是旧版 .doc 文件，请另存为 .docx 后上传',
  'document.old_ppt': '这是旧版 .ppt 文件，请另存为 .pptx 后上传',
  'document.not_pptx': '文件内容与扩展名不符，不是有效的 PowerPoint 演示文稿',
  'document.not_docx': '文件内容与扩展名不符，不是有效的 Word 文档',
  'document.not_pdf': '文件内容与扩展名不符，不是有效的 PDF 文件',
  'document.not_text': '文件内容与扩展名不符，不是文本文件',
  'document.not_type': '文件内容与扩展名不符，不是有效的 .{ext} 文件',
  'document.zip_not_docx': '压缩包不是有效的 Word 文档，缺少 word/document.xml',
  'document.zip_not_pptx': '压缩包不是有效的 PowerPoint 演示文稿，缺少 ppt/presentation.xml',
  'document.binary_text': '文件内容不是文本',
  'document.no_convert': '文档已损坏，无法转换',
  'document.no_soffice': '服务器未安装 LibreOffice，暂不能读取 .doc/.wps 文件，请另存为 .docx 后上传',
  'document.soffice_failed': '无法转换该 .{ext} 文件，文件可能已损坏',
  'document.nothing_readable': '文档没有可读取的内容',
  'document.unreadable': '文档已损坏，无法读取',
  'document.pdf_unreadable': 'PDF 文件已损坏或已加密，无法读取',
  'document.encrypted': '文档已加密，无法读取',
  'document.corrupt_docx': '文档已损坏或不是有效的 Word 文档',
  'document.zip_bomb': '文档解压后过大，可能是压缩炸弹',
  'document.too_many_entries': '文档包含的条目过多：{count} 个，最多 {max} 个',
  'document.nested_too_deep': '文档结构嵌套过深，超过 {max} 层',
  'document.too_complex': '文档结构过于复杂，无法处理',
  'document.result_too_large': '处理结果过大，请拆分文档后重试',
  'document.out_of_memory': '文档过大或结构过于复杂，处理时超出内存限制',
  'document.timed_out': '文档过大或过于复杂，处理超过 {seconds} 秒',
  'document.interrupted': '文档处理多次中断，请重新上传',
  'document.file_lost': '文档文件已丢失，请重新上传',
  'document.no_text': '文档没有可校对的文字',
  'document.failed': '文档处理失败，请稍后重试',
  'document.cancelled': '已取消',
  'document.paragraph_failed': '第{paragraph}段校对失败，请稍后重试',
  'document.fix_outside': '第{n}处修改的位置超出文本范围',
  'document.fix_multiline': '第{n}处修改不能跨段落',
  'document.fix_mismatch': '第{n}处修改与保存的文本不一致',
  'document.fix_unchanged': '第{n}处修改没有改动',
  'document.fix_overlap': '第{n}处修改与前一处修改重叠',
  'compare.too_large': '比对文件不能超过 {mb} MB（{name}）',
  'compare.too_many_pages': '比对文件不能超过 {max} 页（{name} 约 {pages} 页）',
  'compare.no_text': '文档没有可比对的文字（{name}）',
  'compare.exhausted': '文档比对次数已用完',
  'format.unknown_template': '格式模板不存在',
  'download.too_large': '文件过大，无法保存到下载中心',
  'download.bad_ttl': '保存天数须在 1 到 {max} 天之间',
  'download.unknown': '文件不存在或已过期',

  // dictionaries
  'dict.word_blank': '词语不能为空，且不能包含换行等控制字符',
  'dict.correct_required': '错词须填写正确写法',
  'dict.correct_same': '正确写法不能与错词相同',
  'dict.duplicate': '该词已在词库中',
  'dict.unknown_word': '词语不存在',
  'dict.bad_type': '类型无效',
  'dict.no_failed_rows': '上次导入没有失败的行',
  'dict.unknown_library': '词库不存在：{id}',
  'dict.not_personal': '个人词库中没有这些词',
  'import.encoding': '无法识别文件的文字编码，请另存为 UTF-8',
  'import.csv_quote': 'CSV 格式错误：第 {line} 行的引号没有闭合',
  'import.bad_xlsx': '文件不是有效的 .xlsx 表格（已损坏或内容与扩展名不符）',
  'import.xlsx_too_large': '表格解压后过大',
  'import.too_many_rows': '一次最多导入 {max} 行，请拆分文件',
  'import.file_type': '仅支持 .txt、.csv 和 .xlsx 文件',
  'import.file_too_large': '导入文件不能超过 {mb} MB',

  // teams
  'team.not_member': '您还没有加入团队',
  'team.cannot_read_dictionaries': '您的团队角色无权查看共享词库',
  'team.cannot_use_dictionaries': '您的团队角色无权使用共享词库',
  'team.cannot_manage_dictionaries': '您的团队角色无权管理共享词库',
  'team.cannot_view_usage': '您的团队角色无权查看共享词库使用情况',
  'team.unknown_dictionary': '共享词库不存在',
  'team.duplicate_dictionary': '团队中已有同名共享词库',
  'team.dictionary_name_blank': '词库名称不能为空，且不能包含换行等控制字符',
  'team.name_blank': '团队名称不能为空',
  'team.unknown': '团队不存在：{id}',
  'team.member_elsewhere': '该用户已是团队 {team} 的成员',

  // rights, orders, payment, coupons
  'coupon.unknown': '兑换码不存在，请检查后重新输入',
  'coupon.used': '该兑换码已被使用',
  'coupon.used_by_you': '您已兑换过该兑换码',
  'coupon.expired': '该兑换码已过期',
  'pay.not_configured': '微信支付未配置，请联系管理员开通或确认订单',
  'pay.order_failed': '微信支付下单失败，请稍后再试',
  'pay.unknown_order': '订单不存在',
  'pay.unknown_product': '商品不存在或已下架',
  'pay.already_paid': '订单已支付',
  'pay.refunded': '订单已退款',
  'pay.notify_invalid': '通知验证失败：{reason}',
  'pay.notify_amount': '通知的支付金额与订单不符：{reason}',
} as const satisfies Record<string, string>;

export type ServerMessageCode = keyof typeof SERVER_MESSAGES;

/** The values of a template's placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

export function isServerMessageCode(value: unknown): value is ServerMessageCode {
  return typeof value === 'string' && Object.hasOwn(SERVER_MESSAGES, value);
}

/** The values of a message read from elsewhere (an envelope, a stored row): only string and number values. */
export function readParams(value: unknown): MessageParams {
  if (typeof value === 'string') {
    try {
      return readParams(JSON.parse(value));
    } catch {
      return {};
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const params: Record<string, string | number> = {};
  for (const [key, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'number') params[key] = v;
  return params;
}

/** Fills a template's `{name}` placeholders; a placeholder without a value stays as written. */
export function fillTemplate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The source-language text of a message. */
export function renderMessage(code: ServerMessageCode, params?: MessageParams): string {
  return fillTemplate(SERVER_MESSAGES[code], params);
}
