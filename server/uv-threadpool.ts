import { loadConfig } from './core/config.js';

/**
 * sharp in the worker threads and every fs call share libuv's one thread pool (4 threads
 * by default): with more cores than that, image work would queue and cache hits would wait
 * behind it. It must be sized before the first asynchronous I/O, so entry points import
 * this module first. An explicit UV_THREADPOOL_SIZE is left alone.
 */
export function sizeThreadPool(workers: number): void {
  process.env.UV_THREADPOOL_SIZE ??= String(Math.max(4, workers + 4));
}

try {
  sizeThreadPool(loadConfig().workers);
} catch {
  // A bad configuration is reported by the entry point's own loadConfig().
}
