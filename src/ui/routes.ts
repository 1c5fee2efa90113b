import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  BookOpen,
  Crown,
  Download,
  FileText,
  FileType,
  GitCompareArrows,
  Gift,
  Globe,
  Image,
  Ruler,
  Sparkles,
  SpellCheck,
  UserRound,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';

/** A screen of the main layout (spec §2 table). */
export interface WorkbenchRoute {
  /** App path under the `/workbench` base. */
  path: string;
  /** The feature's name: nav label, page title and the name in its empty state. */
  label: MessageDescriptor;
  icon: LucideIcon;
  /** Page-view click type reported through GET /misscut/v1/click (spec §2). */
  clickType?: number;
  /** The side bar is hidden on this route. */
  hideSlide?: boolean;
  /** The screen stays mounted (hidden) when the user navigates away, so it keeps its state. */
  keepAlive?: boolean;
  /** Listed in the side bar. */
  inNav: boolean;
  /** Listed in the side bar only for members of a team and for users with a pending team invitation. */
  teamOnly?: boolean;
}

export const ROUTES: readonly WorkbenchRoute[] = [
  { path: '/', label: msg`文本校对`, icon: SpellCheck, clickType: 1, keepAlive: true, inNav: true },
  { path: '/link', label: msg`网页校对`, icon: Globe, keepAlive: true, inNav: true },
  { path: '/ai', label: msg`AI 写作`, icon: Sparkles, clickType: 6, keepAlive: true, inNav: true },
  { path: '/document', label: msg`我的文档`, icon: FileText, clickType: 2, keepAlive: true, inNav: true },
  { path: '/image', label: msg`图片校对`, icon: Image, keepAlive: true, inNav: true },
  { path: '/pdf', label: msg`PDF 校对`, icon: FileType, clickType: 9, inNav: true },
  { path: '/video', label: msg`音视频校对`, icon: Video, clickType: 11, inNav: true },
  { path: '/format', label: msg`格式检查`, icon: Ruler, clickType: 13, inNav: true },
  { path: '/diff', label: msg`文档对比`, icon: GitCompareArrows, inNav: true },
  {
    path: '/dictionary',
    label: msg`我的词库`,
    icon: BookOpen,
    clickType: 3,
    keepAlive: true,
    inNav: true,
  },
  { path: '/team', label: msg`我的团队`, icon: Users, clickType: 4, inNav: true, teamOnly: true },
  { path: '/download', label: msg`下载中心`, icon: Download, inNav: true },
  { path: '/right', label: msg`我的权益`, icon: Gift, inNav: true },
  { path: '/upgrade', label: msg`升级会员`, icon: Crown, clickType: 12, inNav: true },
  { path: '/user', label: msg`个人中心`, icon: UserRound, clickType: 7, inNav: true },
  { path: '/editor', label: msg`文档详情`, icon: FileText, hideSlide: true, inNav: false },
  { path: '/pdfdetail', label: msg`PDF 详情`, icon: FileType, hideSlide: true, inNav: false },
  { path: '/teamApply', label: msg`团队版申请`, icon: Users, hideSlide: true, inNav: false },
  { path: '/apiApply', label: msg`API 申请`, icon: FileText, hideSlide: true, inNav: false },
  { path: '/share', label: msg`分享得免费加速`, icon: Gift, hideSlide: true, inNav: false },
  { path: '/sms_invite', label: msg`团队邀请`, icon: Users, hideSlide: true, inNav: false },
];

/** Screens outside the main layout (spec §2). */
export const STANDALONE = {
  rules: { path: '/rules', label: msg`用户规则` },
  redemption: { path: '/redemption', label: msg`兑换码` },
} as const;

/** The read-only view of a shared document: outside the layout, no login needed. */
export const SHARED_DOCUMENT_PATH = '/share-doc';

export const REDIRECTS: Readonly<Record<string, string>> = { '/pricing': '/upgrade', '/home': '/' };

/** The route for an app path (`/workbench` already stripped); undefined for an unknown path. */
export function findRoute(path: string): WorkbenchRoute | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return ROUTES.find((r) => r.path === clean);
}

export const KEEP_ALIVE_ROUTES = ROUTES.filter((r) => r.keepAlive);
export const NAV_ROUTES = ROUTES.filter((r) => r.inNav);
