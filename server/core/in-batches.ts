/**
 * `fn` over `items`, `size` at a time, the results in order. For file-system calls over a
 * whole big album: 20,000 stats queued at once would hold the libuv threadpool (4 threads),
 * and with it every Range read and cached thumbnail of every other visitor, until all are done.
 */
export async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let at = 0; at < items.length; at += size) out.push(...(await Promise.all(items.slice(at, at + size).map(fn))));
  return out;
}
