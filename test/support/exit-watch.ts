import fs from 'node:fs';

/**
 * How long the process may stay up after the last test. Mocha runs without "exit": true, so
 * a leaked handle (server, watcher, timer, pool, child process) would hold the suite open
 * for ever instead of failing it.
 */
const GRACE_MS = 5000;

/**
 * Mocha root hooks (loaded by .mocharc*.json): once the last test is done, a timer that does
 * not itself keep the process alive names what still does and ends the run as a failure.
 */
export const mochaHooks = {
  afterAll(): void {
    setTimeout(() => {
      const open = process.getActiveResourcesInfo().join(', ');
      fs.writeSync(2, `\nThe process is still held open ${GRACE_MS} ms after the last test by: ${open}\n`);
      // Not process.exit(): it waits for the thread pool, and a thread blocked in open() on
      // a FIFO nobody writes to never returns.
      process.kill(process.pid, 'SIGKILL');
    }, GRACE_MS).unref();
  },
};
