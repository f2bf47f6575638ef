import { notFound } from '../core/errors.js';
import { isMissing, resolveInside } from '../core/paths.js';

/**
 * `resolveInside` for folders that may not exist yet (CONTENT_DIR/assets/hero before the
 * first upload): a missing root is a missing file, 404, not a server error.
 */
export async function resolveExistingInside(root: string, relPath: string): Promise<string> {
  try {
    return await resolveInside(root, relPath);
  } catch (err) {
    if (isMissing(err)) throw notFound('File not found');
    throw err;
  }
}
