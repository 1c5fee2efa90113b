import { portraitOf, setPortrait } from '../../domain/accounts/accounts';
import { badRequest, envelope, tooLarge } from '../../errors';
import { defaultAvatarSvg } from '../../domain/accounts/avatar';
import { checkedImageSize, type ImageBounds } from '../../formats/media/image-read';
import type { Operations } from '../types';
import { isUploadedFile } from '../../formats/documents/upload';
import { currentUser } from './profile';

export const PORTRAIT_MAX_BYTES = 2 * 1024 * 1024;
/** Every browser that shows the avatar decodes it: larger than this is no avatar but a memory bomb. */
export const PORTRAIT_BOUNDS: ImageBounds = { maxSide: 4096, message: 'account.avatar_dimensions' };

/** The image type from the file's first bytes (the declared mimetype is only a claim). */
function imageType(data: Buffer): 'image/png' | 'image/jpeg' | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  return null;
}

export const portraitOperations: Operations = {
  /** The uploaded avatar, or a generated one until there is one. */
  getUserPortrait: async (request, reply) => {
    const { user } = await currentUser(request);
    const stored = await portraitOf(request.server.db, user.uid);
    reply.header('cache-control', 'private, no-cache');
    if (stored) return reply.type(stored.mime).send(Buffer.from(stored.data));
    return reply.type('image/svg+xml').send(defaultAvatarSvg(user.uid, user.name));
  },

  postUserPortrait: async (request) => {
    const { user } = await currentUser(request);
    const { file } = request.body;
    if (!isUploadedFile(file)) throw badRequest('account.avatar_no_file');
    if (file.data.length > PORTRAIT_MAX_BYTES) throw tooLarge('account.avatar_too_large');
    const mime = imageType(file.data);
    if (!mime) throw badRequest('account.avatar_type');
    checkedImageSize(file.data, PORTRAIT_BOUNDS);
    await setPortrait(request.server.db, user.uid, mime, file.data);
    return envelope(null, '头像已更新');
  },
};
