/**
 * Memory and CPU of another process, read from /proc (Linux). Read from outside so the
 * server under test runs unmodified; the kernel's own high-water mark (VmHWM, which
 * clear_refs resets) catches a peak that sampling could miss.
 */
import fs from 'node:fs';

const MB = 1024 * 1024;

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/** Resident set size now, in MiB. */
export const rssMb = (pid: number): number => (statusKb(pid, 'VmRSS') * 1024) / MB;

/** Peak resident set size since start (or the last `resetPeak`), in MiB. */
export const peakMb = (pid: number): number => (statusKb(pid, 'VmHWM') * 1024) / MB;

/** Resets VmHWM to the current RSS; false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) the process has used, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** '1.23 0.98 0.75' from /proc/loadavg: printed next to every figure, as the machine is shared. */
export function loadAverage(): string {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

/** Samples RSS every `ms` and keeps the highest value, alongside VmHWM (whichever is higher). */
export function rssSampler(pid: number, ms = 100): { stop(): { peak: number; samples: number[] } } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssMb(pid));
    } catch {
      // The process is gone: the caller finds out on its own.
    }
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      let hwm = 0;
      try {
        hwm = peakMb(pid);
      } catch {
        // Gone.
      }
      return { peak: Math.max(hwm, ...samples), samples };
    },
  };
}
