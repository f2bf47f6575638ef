import { expect } from 'chai';
import { isSafeFileName, MAX_NAME_BYTES, safeFileName, uniqueFileName } from '../../server/admin/uploads/safe-file-name.js';

describe('safeFileName', () => {
  const cases: Array<[string, string, string]> = [
    ['IMG_0001.JPG', 'IMG_0001', '.JPG'],
    ['Summer photo (1).JPG', 'Summer photo (1)', '.JPG'],
    ["Grandma's 90th, part 2 & more [final] #3 +1 = 100% ~ok!.jpeg", "Grandma's 90th, part 2 & more [final] #3 +1 = 100% ~ok!", '.jpeg'],
    ['../../etc/passwd.jpg', 'passwd', '.jpg'],
    ['C:\\Users\\me\\photo.png', 'photo', '.png'],
    ['.hidden.jpg', 'hidden', '.jpg'],
    ['...jpg', 'file', '.jpg'],
    ['-rf.jpg', 'rf', '.jpg'],
    ['Café à Paris.jpeg', 'Café à Paris', '.jpeg'],
    ['Cafe\u0301.jpg', 'Café', '.jpg'],
    ['日本の夏.webp', '日本の夏', '.webp'],
    ['a<script>b.gif', 'a-script-b', '.gif'],
    ['what? "really": yes|no*.png', 'what- -really- yes-no', '.png'],
    ['tab\tand  spaces\u00a0here.jpg', 'tab and spaces here', '.jpg'],
    ['new\nline\u0000nul.jpg', 'new line-nul', '.jpg'],
    ['photo\u202Egpj.exe.jpg', 'photo-gpj.exe', '.jpg'],
    ['emoji 🎉 party.jpg', 'emoji 🎉 party', '.jpg'],
    ['trailing dots and spaces. . .JPG', 'trailing dots and spaces', '.JPG'],
    ['con.jpg', '_con', '.jpg'],
    ['LPT1.backup.png', '_LPT1.backup', '.png'],
    ['console.jpg', 'console', '.jpg'],
    ['---.jpg', 'file', '.jpg'],
    ['photo.J?P:G', 'photo', '.JPG'],
    [`${'x'.repeat(300)}.jpg`, 'x'.repeat(120), '.jpg'],
  ];
  for (const [input, base, ext] of cases) {
    it(`should make ${JSON.stringify(input)} into ${JSON.stringify(base + ext)}`, () => {
      expect(safeFileName(input)).to.deep.equal({ base, ext });
    });
  }

  describe('with a long name in a script of several bytes per character', () => {
    const bytes = (s: string) => Buffer.byteLength(s);
    for (const [what, unit] of [
      ['Japanese (3 bytes)', '夏'],
      ['Cyrillic (2 bytes)', 'ж'],
      ['Devanagari clusters (a letter and its marks)', 'क्षि'],
      ['letters with combining marks NFC cannot merge', 'q\u0323\u0307'],
      ['a 4-byte letter', '𠜎'],
    ] as const) {
      it(`should shorten ${what} by bytes, keeping the extension and whole characters`, () => {
        const { base, ext } = safeFileName(`${unit.repeat(200)}.JPG`);
        expect(ext).to.equal('.JPG');
        expect(bytes(base + ext)).to.be.at.most(MAX_NAME_BYTES);
        expect(bytes(base)).to.be.above(MAX_NAME_BYTES - bytes(unit) - ext.length - 1);
        expect(base).to.equal(unit.repeat(base.length / unit.length));
        expect(base).to.not.include('\ufffd');
      });
    }

    it('should leave room for a unique suffix and a temp name within 255 bytes', () => {
      const { base, ext } = safeFileName(`${'日本'.repeat(200)}.jpeg`);
      const name = uniqueFileName(base, ext, new Set([`${base}${ext}`.toLowerCase()]));
      expect(bytes(`.${name}.4194304.0123456789ab.tmp`)).to.be.at.most(255);
    });

    it('should cut an absurd extension', () => {
      expect(bytes(safeFileName(`a.${'x'.repeat(300)}`).ext)).to.be.at.most(16);
    });
  });

  it('should use the fallback for a name with nothing left', () => {
    expect(safeFileName('???.jpg', 'photo')).to.deep.equal({ base: 'photo', ext: '.jpg' });
  });
});

describe('isSafeFileName', () => {
  for (const name of ['Summer photo (1).JPG', 'IMG_0001.jpg', '日本の夏.webp', "Grandma's 90th.jpg"]) {
    it(`should take ${JSON.stringify(name)} as it is`, () => {
      expect(isSafeFileName(name)).to.equal(true);
    });
  }
  for (const name of [
    'a/b.jpg',
    'a\\b.jpg',
    '.hidden.jpg',
    'photo.jpg ',
    ' photo.jpg',
    'con.jpg',
    'a?.jpg',
    'tab\there.jpg',
    'noext',
    '.jpg',
    'x\u202E.jpg',
    `${'x'.repeat(300)}.jpg`,
  ]) {
    it(`should refuse ${JSON.stringify(name)}`, () => {
      expect(isSafeFileName(name)).to.equal(false);
    });
  }
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
