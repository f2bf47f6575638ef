import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A temp name beside `file`, so the final rename stays on one filesystem. Dot-prefixed: never served. */
export function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
}

/** Writes `data` to a temp file beside `file`, flushes it, then renames it over `file`. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempNameFor(file);
  try {
    const handle = await fs.open(tmp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
