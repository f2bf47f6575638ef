import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * V8 grows its heap to meet a burst of traffic and runs its collector only when JavaScript
 * allocates, so once the visitors have gone an idle server keeps the high-water mark of the
 * burst (README, benchmarks: RSS after the load test). A few seconds after the last request of
 * a busy spell, a full collection frees that memory, and a second one as long again later lets
 * V8 give its emptied pages back (after the first alone, the heap kept 125 MB for 15 s more
 * after the load test); an idle server pays nothing more.
 */
export function collectWhenQuiet(quietMs = 5000, collect: () => void = fullCollection()): { readonly touch: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const after = (ms: number, then: () => void) => setTimeout(then, ms).unref();
  return {
    touch() {
      clearTimeout(timer);
      timer = after(quietMs, () => {
        collect();
        timer = after(quietMs, collect);
      });
    },
  };
}

/** V8's full collection, without starting Node with --expose-gc. */
function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => gc();
}
