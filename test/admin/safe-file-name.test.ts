import { expect } from 'chai';
import { safeFileName, uniqueFileName } from '../../server/admin/uploads/safe-file-name.js';

describe('safeFileName', () => {
  const cases: Array<[string, string, string]> = [
    ['IMG_0001.JPG', 'IMG_0001', '.jpg'],
    ['../../etc/passwd.jpg', 'passwd', '.jpg'],
    ['C:\\Users\\me\\photo.png', 'photo', '.png'],
    ['My Trip (1).JPG', 'My Trip -1', '.jpg'],
    ['.hidden.jpg', 'hidden', '.jpg'],
    ['...jpg', 'file', '.jpg'],
    ['Café à Paris.jpeg', 'Café à Paris', '.jpeg'],
    ['Cafe\u0301.jpg', 'Café', '.jpg'],
    ['日本の夏.webp', '日本の夏', '.webp'],
    ['a<script>b.gif', 'a-script-b', '.gif'],
    ['tab\tand  spaces.jpg', 'tab and spaces', '.jpg'],
    ['emoji 🎉 party.jpg', 'emoji - party', '.jpg'],
    ['---.jpg', 'file', '.jpg'],
    [`${'x'.repeat(300)}.jpg`, 'x'.repeat(120), '.jpg'],
  ];
  for (const [input, base, ext] of cases) {
    it(`should make ${JSON.stringify(input)} into ${JSON.stringify(base + ext)}`, () => {
      expect(safeFileName(input)).to.deep.equal({ base, ext });
    });
  }

  it('should use the fallback for a name with nothing left', () => {
    expect(safeFileName('###.jpg', 'photo')).to.deep.equal({ base: 'photo', ext: '.jpg' });
  });
});

describe('uniqueFileName', () => {
  it('should keep the name when it is free', () => {
    expect(uniqueFileName('a', '.jpg', new Set(['b.jpg']))).to.equal('a.jpg');
  });

  it('should add -2, -3… on collision, ignoring case', () => {
    expect(uniqueFileName('a', '.jpg', new Set(['a.jpg']))).to.equal('a-2.jpg');
    expect(uniqueFileName('A', '.jpg', new Set(['a.jpg', 'a-2.jpg']))).to.equal('A-3.jpg');
  });
});
