import { lazyWithReload, pageReloadFlag as reloadFlag } from '../lazy';

// Parts of the layout that are not needed for the first paint: the user menu (menus, popovers, positioning) and the
// quota and account switch dialogs (dialogs, focus trap) load right after it, outside the initial JavaScript.
export const UserMenu = lazyWithReload(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })), reloadFlag);
export const QuotaDialog = lazyWithReload(
  () => import('./QuotaDialog').then((m) => ({ default: m.QuotaDialog })),
  reloadFlag,
);
export const AccountSwitchDialog = lazyWithReload(
  () => import('./AccountSwitchDialog').then((m) => ({ default: m.AccountSwitchDialog })),
  reloadFlag,
);
export const GuideModal = lazyWithReload(
  () => import('./GuideModal').then((m) => ({ default: m.GuideModal })),
  reloadFlag,
);
export const NoticeBell = lazyWithReload(
  () => import('./NoticeBell').then((m) => ({ default: m.NoticeBell })),
  reloadFlag,
);
export const NoticePopup = lazyWithReload(
  () => import('./NoticePopup').then((m) => ({ default: m.NoticePopup })),
  reloadFlag,
);
export const ShortcutHelp = lazyWithReload(
  () => import('./ShortcutHelp').then((m) => ({ default: m.ShortcutHelp })),
  reloadFlag,
);
export const NavDrawer = lazyWithReload(
  () => import('./NavDrawer').then((m) => ({ default: m.NavDrawer })),
  reloadFlag,
);
