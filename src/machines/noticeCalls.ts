// Calls of the notices (/notice/v1/*), typed by the contract.
import type { components, operations } from '../../openapi/schema';
import { api, unwrap } from '../api/client';

export type Notice = components['schemas']['Notice'];
export type NoticeList = operations['getNoticeV1List']['responses']['200']['content']['application/json']['result'];

export function noticeList(): Promise<NoticeList> {
  return unwrap(api.GET('/notice/v1/list'), { silent: true });
}

export async function markNoticesRead(ids: number[]): Promise<void> {
  await unwrap(api.POST('/notice/v1/read', { body: { ids } }), { silent: true });
}
