// Calls of the guide modal (/wizard/v1/*), typed by the contract. Both go without the device id (spec §7).
import { api, unwrap } from '../api/client';

/** Records that the user finished (1) or skipped (2) a guide version; silent, the guide just shows again. */
export async function recordGuide(type: 1 | 2, ver: string): Promise<void> {
  await unwrap(api.GET('/wizard/v1/access', { params: { query: { type, ver } } }), { silent: true });
}
