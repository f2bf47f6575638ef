import type { AlbumIndex } from '../core/albums/album-index.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { MediaPool } from '../media/pool.js';
import type { AlbumFiles } from './album-files.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { HeifDecodeCheck } from './uploads/verify-media.js';

export interface UploadLimits {
  /** Per file (docs/api.md#admin-server: 2 GB). */
  readonly maxFileBytes: number;
  /** Per request. */
  readonly maxFiles: number;
}

/** What the route modules share; built once in createAdminApp, passed explicitly. */
export interface AdminContext {
  readonly config: Config;
  readonly index: AlbumIndex;
  readonly albums: AlbumFiles;
  /** One queue for every file and directory the admin writes, keyed by absolute path. */
  readonly queue: KeyedQueue;
  readonly uploads: UploadLimits;
  /** Decodes an uploaded HEIC whole in a worker thread (libvips cannot): see uploads/verify-media.ts. */
  readonly decodeHeif: HeifDecodeCheck;
  /** The admin's media pool, made on first use (app.ts): HEIC checks and the previews' thumbnails. */
  readonly mediaPool: () => MediaPool;
  /** Rescans the album index after a write, so the next list shows it; never fails the request. */
  readonly refreshIndex: () => Promise<void>;
  readonly log: Logger;
}
