import { lazyWithReload, pageReloadFlag as reloadFlag } from '../lazy';

// Every screen is its own chunk; a failed chunk load reloads the page once per session (spec §2).
export const LoginScreen = lazyWithReload(() => import('./Login'), reloadFlag);
export const UserScreen = lazyWithReload(() => import('./User'), reloadFlag);
export const NotFoundScreen = lazyWithReload(() => import('./NotFound'), reloadFlag);
export const RulesScreen = lazyWithReload(() => import('./Rules'), reloadFlag);
export const RightScreen = lazyWithReload(() => import('./commerce/Right'), reloadFlag);
export const UpgradeScreen = lazyWithReload(() => import('./commerce/Upgrade'), reloadFlag);
export const HomeScreen = lazyWithReload(() => import('./home/Home'), reloadFlag);
export const FormatScreen = lazyWithReload(() => import('./format/Format'), reloadFlag);
export const DiffScreen = lazyWithReload(() => import('./diff/Diff'), reloadFlag);
export const DocumentsScreen = lazyWithReload(() => import('./documents/Documents'), reloadFlag);
export const DocumentEditorScreen = lazyWithReload(() => import('./documents/DocumentEditor'), reloadFlag);
export const SharedDocumentScreen = lazyWithReload(() => import('./documents/SharedDocument'), reloadFlag);
export const RedemptionScreen = lazyWithReload(() => import('./Redemption'), reloadFlag);
export const DownloadsScreen = lazyWithReload(() => import('./Downloads'), reloadFlag);
export const ShareScreen = lazyWithReload(() => import('./Share'), reloadFlag);
export const SmsInviteScreen = lazyWithReload(() => import('./SmsInvite'), reloadFlag);
export const TeamScreen = lazyWithReload(() => import('./team/Team'), reloadFlag);
export const TeamApplyScreen = lazyWithReload(() => import('./team/TeamApply'), reloadFlag);
export const ApiApplyScreen = lazyWithReload(() => import('./team/ApiApply'), reloadFlag);
export const DictionaryScreen = lazyWithReload(() => import('./dictionary/Dictionary'), reloadFlag);
export const LinkScreen = lazyWithReload(() => import('./link/Link'), reloadFlag);
export const PdfListScreen = lazyWithReload(() => import('./pdf/PdfList'), reloadFlag);
export const PdfDetailScreen = lazyWithReload(() => import('./pdf/PdfDetail'), reloadFlag);
export const ImageCheckScreen = lazyWithReload(() => import('./image/ImageCheck'), reloadFlag);
export const VideoScreen = lazyWithReload(() => import('./video/Video'), reloadFlag);
export const AiWritingScreen = lazyWithReload(() => import('./ai/AiWriting'), reloadFlag);
