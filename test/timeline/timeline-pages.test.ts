import { expect } from 'chai';
import request from 'supertest';
import { TIMELINE_PAGE_SIZE } from '../../server/public/pages/timeline.js';
import type { GalleryFixture } from '../support/gallery-fixture.js';
import { datedGallery, exifDate } from './dated-gallery.js';

interface Tile {
  path: string;
  index: number;
  taken: string;
}

/**
 * The timeline a page at a time (docs/api.md#timeline): the cursor's pages join without a gap
 * or a repeat across albums, each tile knows its place in the whole timeline (the viewer's
 * index), a page can start at a month (the year scrubber), and the viewer's list is asked by
 * page number or by a file's path.
 */
describe('timeline pages', function () {
  this.timeout(120_000);
  let fx: GalleryFixture;
  /** Every file, newest first: [path, EXIF date]. */
  const all: [string, string][] = [];

  before(async () => {
    const many: Record<string, string> = {};
    // 130 photos over January to May 2022, two albums' files interleaved in time.
    for (let i = 0; i < 130; i++) many[`p${String(i).padStart(3, '0')}.jpg`] = exifDate(2022, (i % 5) + 1, (i % 28) + 1, 8 + (i % 12));
    const other: Record<string, string> = {};
    for (let i = 0; i < 12; i++) other[`o${i}.jpg`] = exifDate(2022, (i % 5) + 1, (i % 28) + 1, 7);
    fx = await datedGallery({ many: { meta: { title: 'Many' }, files: many }, other: { meta: { title: 'Other' }, files: other } });
    for (const [album, files] of [
      ['many', many],
      ['other', other],
    ] as const)
      for (const [name, taken] of Object.entries(files)) all.push([`${album}/${name}`, taken]);
    // Newest first (no two files share an instant).
    all.sort((a, b) => (a[1] < b[1] ? 1 : -1));
  });
  after(() => fx.close());

  const api = (query: string) => request(fx.gallery.handler).get(`/api/timeline${query}`);

  it('should page through every file once, newest first, each tile with its place', async () => {
    const first = await api('').expect(200);
    expect(first.body.total).to.equal(142);
    expect(first.body.files).to.have.length(TIMELINE_PAGE_SIZE);
    expect(first.body.next).to.be.a('string');
    const second = await api(`?cursor=${first.body.next}&at=${TIMELINE_PAGE_SIZE}`).expect(200);
    expect(second.body.next).to.equal(undefined);
    const tiles = [...first.body.files, ...second.body.files] as Tile[];
    expect(tiles.map((t) => t.index)).to.deep.equal(tiles.map((_, i) => i));
    expect(tiles.map((t) => t.taken)).to.deep.equal(all.map(([, taken]) => taken.replace(/^(\d+):(\d+):(\d+) /, '$1-$2-$3T')));
    expect(new Set(tiles.map((t) => t.path)).size).to.equal(142);
  });

  it('should render a page with a header per month and a plain link to the next', async () => {
    const res = await request(fx.gallery.handler).get('/timeline').expect(200);
    const months = [...res.text.matchAll(/<li class="timeline__month" data-month="([\d-]+)"><h3>([^<]+)<\/h3>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(months.slice(0, 2)).to.deep.equal(['2022-05 May 2022', '2022-04 April 2022']);
    const next = /<a class="button button--ghost button--small" rel="next" href="([^"]+)">More photos<\/a>/.exec(res.text)?.[1];
    expect(next).to.match(new RegExp(`^/timeline\\?cursor=[\\w-]+&amp;at=${TIMELINE_PAGE_SIZE}$`));
    const page2 = await request(fx.gallery.handler).get(next!.replace(/&amp;/g, '&')).expect(200);
    const indices = [...page2.text.matchAll(/data-index="(\d+)"/g)].map((m) => Number(m[1]));
    expect(indices[0]).to.equal(TIMELINE_PAGE_SIZE);
    expect(indices).to.have.length(142 - TIMELINE_PAGE_SIZE);
    expect(page2.text).not.to.include('rel="next"');
    // A page started further on links back to the newest.
    expect(page2.text).to.include('<a href="/timeline" data-newest>Newest</a>');
  });

  it('should start at a month (the year scrubber), its first tile at its place in the whole timeline', async () => {
    const res = await api('?month=2022-03').expect(200);
    const newer = all.filter(([, taken]) => taken > '2022:04').length;
    const march = all.filter(([, taken]) => taken.startsWith('2022:03'));
    expect(res.body.at).to.equal(newer);
    expect((res.body.files as Tile[])[0]).to.include({ path: march[0]![0], index: newer });
    const page = await request(fx.gallery.handler).get('/timeline?month=2022-03').expect(200);
    expect(page.text).to.match(
      /<li class="timeline__month" data-month="2022-03"><h3>March 2022<\/h3><\/li>\s*<li class="media__item[^>]*>\s*<a class="media__link"[^>]* data-index="(\d+)"/,
    );
    expect(/data-index="(\d+)"/.exec(page.text)?.[1]).to.equal(String(newer));
    // A month before every file: nothing after it, at the end.
    const past = await api('?month=2001-01').expect(200);
    expect(past.body).to.include({ total: 142, at: 142 });
    expect(past.body.files).to.deep.equal([]);
  });

  it('should give the viewer any page of the list by number, and the page of a file by its path', async () => {
    const page2 = await api('?for=viewer&page=2').expect(200);
    expect(page2.body.page).to.equal(2);
    const items = page2.body.items as (Tile & { name: string })[];
    expect(items.map((i) => i.index)).to.deep.equal(items.map((_, i) => TIMELINE_PAGE_SIZE + i));
    expect(items.map((i) => i.name)).to.deep.equal(all.slice(TIMELINE_PAGE_SIZE).map(([path]) => path));
    const [path] = all[130]!;
    const found = await api(`?for=viewer&name=${encodeURIComponent(path)}`).expect(200);
    expect(found.body.page).to.equal(2);
    expect((found.body.items as { name: string; index: number }[]).find((i) => i.name === path)?.index).to.equal(130);
    const past = await api('?for=viewer&page=99').expect(200);
    expect(past.body.items).to.deep.equal([]);
  });

  it('should refuse malformed parameters with a JSON 400', async () => {
    for (const [query, error] of [
      ['?month=2022-13', 'Invalid parameter: month must be YYYY-MM'],
      ['?month=22-01', 'Invalid parameter: month must be YYYY-MM'],
      ['?cursor=%21%21', 'Invalid parameter: cursor'],
      [`?cursor=${'a'.repeat(601)}`, 'Invalid parameter: cursor'],
      ['?cursor=abc&at=-1', 'Invalid parameter: at must be a whole number'],
      ['?for=viewer&page=0', 'Invalid parameter: page must be an integer from 1 to 10000'],
      ['?for=viewer&page=x', 'Invalid parameter: page must be an integer from 1 to 10000'],
    ] as const) {
      const res = await api(query).expect(400);
      expect(res.body, query).to.deep.equal({ error });
    }
    await request(fx.gallery.handler).get('/timeline?month=nope').expect(400);
  });
});
