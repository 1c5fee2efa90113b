import { envelope } from '../errors';
import {
  allAnnouncements,
  markRead,
  noticesFor,
  publishAnnouncement,
  withdrawAnnouncement,
} from '../domain/notices/announcements';
import { caller, requireOperator, type Operations } from './types';

/** Announcements: the user's notice list, and what the site's operators publish (domain/notices/announcements.ts). */
export const noticeOperations: Operations = {
  getNoticeV1List: async (request) => {
    const { uid } = await caller(request);
    return envelope(await noticesFor(request.server.db, uid));
  },

  postNoticeV1Read: async (request) => {
    const { uid } = await caller(request);
    return envelope({ count: await markRead(request.server.db, uid, request.body.ids) });
  },

  getAdminV1Announcements: async (request) => {
    await requireOperator(request);
    return envelope(await allAnnouncements(request.server.db));
  },

  postAdminV1Announcements: async (request) => {
    const uid = await requireOperator(request);
    const published = await publishAnnouncement(request.server, request.body, uid);
    request.log.info({ announcement: published.id, delivered: published.delivered }, 'announcement published');
    return envelope(published, '公告已发布');
  },

  deleteAdminV1AnnouncementsById: async (request) => {
    await requireOperator(request);
    await withdrawAnnouncement(request.server.db, request.params.id);
    return envelope(null, '公告已撤回');
  },
};
