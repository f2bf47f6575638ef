import { expect } from 'chai';
import type { MediaPool } from '../../server/media/pool.js';
import type { ExifRecord, ThumbnailResult } from '../../workers/tasks.js';

/**
 * The task map (workers/tasks.ts) types both ends of the pool. What this guards is checked
 * by `tsc --noEmit` (each @ts-expect-error must be an error); at run time nothing is called.
 */
describe('the media task map', () => {
  it('should make an unknown task or a wrong input a compile error', () => {
    const calls = async (pool: MediaPool) => {
      // @ts-expect-error: no such task.
      await pool.run('thumbnial', { src: 'a.jpg' });
      // @ts-expect-error: a size needs the kind of media.
      await pool.run('dimensions', { src: 'a.jpg' });
      // @ts-expect-error: thumbnail outputs are required.
      await pool.run('thumbnail', { src: 'a.jpg', kind: 'image' });
      const record: ExifRecord = await pool.run('exif', { src: 'a.jpg' });
      // @ts-expect-error: a thumbnail task gives results, not an EXIF record.
      const wrong: ExifRecord = await pool.run('thumbnail', { src: 'a.jpg', kind: 'image', outputs: [] });
      const results: ThumbnailResult[] = await pool.thumbnail({ src: 'a.jpg', kind: 'image', outputs: [] });
      return [record, wrong, results];
    };
    expect(calls).to.be.a('function');
  });
});
