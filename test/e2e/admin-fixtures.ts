import type { Page } from 'playwright-core';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { type Config, loadConfig } from '../../server/core/config.js';
import { createGallery } from '../../server/gallery.js';
import { quietLogger } from '../support/capture-logger.js';
import { listenOnLoopback } from '../support/loopback-server.js';

/**
 * The admin app and the public gallery over one tree (`albums`, `content`, `cache` under
 * `root`), each on a loopback port, as an owner runs them side by side: the gallery watches the
 * tree, the admin rescans its own index after each write.
 */
export interface AdminAndSite {
  readonly config: Config;
  readonly adminUrl: string;
  readonly siteUrl: string;
  close(): Promise<void>;
}

export async function startAdminAndSite(root: string): Promise<AdminAndSite> {
  const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', ADMIN_PORT: '0', PORT: '0', WORKERS: '1' }, root);
  const gallery = await createGallery(config, { watch: true, log: quietLogger });
  const site = await listenOnLoopback(gallery.handler);
  const index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
  const admin = await listenOnLoopback(createAdminApp(config, { index, log: quietLogger }));
  return {
    config,
    adminUrl: admin.url,
    siteUrl: site.url,
    async close() {
      await admin.close();
      await site.close();
      await gallery.close();
      index.close();
    },
  };
}

/** Adds to `problems` the page's script errors, console errors (CSP violations) and failed requests: an admin page must run clean. */
export function recordProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
  });
}
