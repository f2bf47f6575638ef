import os from 'node:os';

/**
 * sharp in the worker threads and every fs call share libuv's one thread pool (4 threads
 * by default): with more cores than that, image work would queue and cache hits would wait
 * behind it. It must be sized before the first asynchronous I/O, so main.ts imports this
 * module first. An explicit UV_THREADPOOL_SIZE is left alone.
 */
if (!process.env.UV_THREADPOOL_SIZE) {
  const workers = Number(process.env.WORKERS) || os.availableParallelism();
  process.env.UV_THREADPOOL_SIZE = String(Math.max(4, workers + 4));
}
