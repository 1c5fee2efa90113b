// The one channel for user-facing messages. Texts are the spec's Chinese source strings; the UI
// translates known ones through the Lingui catalogs and shows them with the Chakra toaster.

export type NoticeStatus = 'error' | 'success' | 'info' | 'warning';

export interface Notice {
  status: NoticeStatus;
  title: string;
  /** milliseconds; the UI's default when absent */
  duration?: number;
}

export type NoticeListener = (notice: Notice) => void;

const listeners = new Set<NoticeListener>();
// Notices raised before the UI subscribed (start-up, route query) are kept and delivered once.
const pending: Notice[] = [];
const MAX_PENDING = 20;

export function notify(notice: Notice): void {
  if (!notice.title) return;
  if (listeners.size === 0) {
    pending.push(notice);
    if (pending.length > MAX_PENDING) pending.shift();
    return;
  }
  for (const listener of [...listeners]) listener(notice);
}

export function subscribeNotices(listener: NoticeListener): () => void {
  listeners.add(listener);
  for (const notice of pending.splice(0)) listener(notice);
  return () => {
    listeners.delete(listener);
  };
}
