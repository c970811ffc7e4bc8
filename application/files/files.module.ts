import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { VideoHost } from '../../infrastructure/video/video-host.port.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';
import { registerFileRoutes } from './files.routes.ts';

type FilesNeeds = { readonly files: FileStore; readonly db: CourseReadDb; readonly videos: VideoHost; readonly settings: { readonly videoMaxBytes: number } };

/** Uploaded files and videos, served to whoever may read them. */
export const filesModule: FeatureModule<FilesNeeds> = {
  name: 'files',
  projections: [],
  wire: (needs) => ({
    routes: (app) => registerFileRoutes(app, { files: needs.files, db: needs.db, videos: needs.videos, videoMaxBytes: needs.settings.videoMaxBytes }),
  }),
};
