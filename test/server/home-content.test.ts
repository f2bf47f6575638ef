import { expect } from 'chai';
import { HomeFileError, homePageContent, parseHomeContent, parseHomeFile } from '../../server/core/home-content.js';

/** home.json has one reading (parseHomeFile) that both servers use; the public page only derives its view from it. */
describe('home.json reading (server/core/home-content.ts)', () => {
  const text = JSON.stringify({
    intro: { body: 'Hello', extra: 1 },
    cards: [{ title: 'A', link: 'javascript:alert(1)' }, 'not a card', { id: 'b', title: 'B', link: '/photos/2024', image: 5 }],
    footer: 'by hand',
  });

  it('should give the admin every part with its default, values as written and unknown keys kept', () => {
    expect(parseHomeFile(text)).to.deep.equal({
      intro: { body: 'Hello', extra: 1, title: '' },
      cards: [
        { id: 'card-1', title: 'A', description: '', image: '', link: 'javascript:alert(1)' },
        { id: 'b', title: 'B', description: '', image: '', link: '/photos/2024' },
      ],
      footer: 'by hand',
    });
  });

  it('should give the public page the same cards (same ids), a title always and no unsafe link', () => {
    const page = parseHomeContent(text);
    expect(page).to.deep.equal(homePageContent(parseHomeFile(text)));
    expect(page).to.deep.equal({
      intro: { title: 'Welcome', body: 'Hello' },
      cards: [
        { id: 'card-1', title: 'A', description: '', image: '', link: '' },
        { id: 'b', title: 'B', description: '', image: '', link: '/photos/2024' },
      ],
    });
  });

  for (const bad of ['[oops', '[]', 'null', '"text"']) {
    it(`should refuse ${bad} as not a JSON object, for both`, () => {
      expect(() => parseHomeFile(bad)).to.throw(HomeFileError);
      expect(() => parseHomeContent(bad)).to.throw(HomeFileError);
    });
  }
});
