import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A temp name beside `file`, so the final rename stays on one filesystem. Dot-prefixed: never served. */
export function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
}

/** Writes `data` to a new temp file beside `file` and flushes it; returns its name. */
export async function writeTempBeside(file: string, data: string | Uint8Array): Promise<string> {
  const tmp = tempNameFor(file);
  try {
    const handle = await fs.open(tmp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return tmp;
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Writes `data` to a temp file beside `file`, flushes it, then renames it over `file`. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = await writeTempBeside(file, data);
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
