import type { FileStore } from '../files/file-store.port.ts';
import type { VideoHost } from './video-host.port.ts';

/** Videos kept as platform files (served with range requests by GET /api/files/{id}); no Vimeo account needed. */
export const createLocalVideoHost = (files: FileStore): VideoHost => ({
  upload: async ({ name, contentType, bytes, createdBy }) => {
    const { id } = await files.put({ name, contentType, bytes, createdBy });
    return { vimeoId: null, fileUrl: `/api/files/${id}` };
  },
});
