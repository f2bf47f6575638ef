/**
 * The primary of N gallery processes sharing one port, with Node's cluster module: what PM2's
 * cluster mode does (it is built on the same module), without PM2, so the benchmarks need no
 * global tool. Started by bench/server-process.ts:
 *
 *   node --import tsx bench/node-cluster.ts <instances> <node args...> <gallery entry>
 *
 * The workers get this process's environment (PORT, INSTANCES...) and its stdout; each says
 * `ready` as it says it to PM2 (server/main.ts), and once all have, this prints its own ready
 * line. SIGTERM goes on to every worker; it exits when they have.
 */
import cluster, { type Worker } from 'node:cluster';

const [count, ...entry] = process.argv.slice(2);
const instances = Number(count);
if (!Number.isInteger(instances) || instances < 1 || entry.length === 0) {
  console.error('usage: node-cluster.ts <instances> <node args...> <entry>');
  process.exit(2);
}

cluster.setupPrimary({ exec: entry[entry.length - 1]!, execArgv: entry.slice(0, -1) });
const workers: Worker[] = [];
let ready = 0;
let stopping = false;
for (let i = 0; i < instances; i++) {
  const worker = cluster.fork({ NODE_APP_INSTANCE: String(i) });
  workers.push(worker);
  worker.on('message', (message: unknown) => {
    if (message !== 'ready') return;
    ready++;
    if (ready === instances) console.log(`cluster of ${instances} ready at http://127.0.0.1:${process.env.PORT}`);
  });
  worker.on('exit', (code) => {
    if (!stopping) {
      console.error(`worker ${i} exited with ${code}`);
      process.exit(1);
    }
  });
}

process.on('SIGTERM', () => {
  stopping = true;
  let left = workers.filter((w) => !w.isDead()).length;
  if (left === 0) process.exit(0);
  for (const worker of workers) {
    worker.once('exit', () => {
      left--;
      if (left === 0) process.exit(0);
    });
    worker.process.kill('SIGTERM');
  }
});
