import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * V8 grows its heap to meet a burst of traffic and runs its collector only when JavaScript
 * allocates, so once the visitors have gone an idle server keeps the high-water mark of the
 * burst (README, benchmarks: RSS after the load test). A few seconds after the last request of
 * a busy spell, one full collection gives that memory back; an idle server pays nothing more.
 */
export function collectWhenQuiet(quietMs = 5000, collect: () => void = fullCollection()): { readonly touch: () => void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => collect(), quietMs).unref();
    },
  };
}

/** V8's full collection, without starting Node with --expose-gc. */
function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => gc();
}
