import { expect } from 'chai';
import { importedSpecifiers, violationsOf } from '../../scripts/check-imports.js';

describe('scripts/check-imports', () => {
  it('should find static, type, side-effect, re-export and dynamic imports', () => {
    const source = [
      "import a from './a.js';",
      "import type { B } from '../b.js';",
      "import {\n  c,\n  d\n} from './cd.js';",
      "import './side.js';",
      "export { e } from './e.js';",
      "const f = await import('./f.js');",
    ].join('\n');
    expect(importedSpecifiers(source)).to.have.members(['./a.js', '../b.js', './cd.js', './side.js', './e.js', './f.js']);
  });

  it('should refuse the apps, http, media and workers from server/core', () => {
    for (const specifier of [
      '../public/app.js',
      '../admin/app.js',
      '../http/error-handler.js',
      '../media/pool.js',
      '../../workers/media-worker.js',
      './access/../../public/x.js',
    ]) {
      expect(violationsOf('server/core/x.ts', `import y from '${specifier}';`), specifier).to.have.length(1);
    }
    expect(violationsOf('server/core/access/x.ts', "import { a } from '../albums/album-index.js';")).to.deep.equal([]);
  });

  it('should refuse the public app from the admin app, and all but server/core from workers', () => {
    expect(violationsOf('server/admin/routes/x.ts', "import y from '../../public/resolvers.js';")).to.have.length(1);
    expect(violationsOf('server/admin/x.ts', "import y from '../core/paths.js';")).to.deep.equal([]);
    expect(violationsOf('workers/x.ts', "import y from '../server/media/pool.js';")).to.have.length(1);
    expect(violationsOf('workers/x.ts', "import y from '../server/core/media-catalogue.js';")).to.deep.equal([]);
  });

  it('should refuse scripts, bench and test from the server and the workers, and leave packages to Biome', () => {
    expect(violationsOf('server/gallery.ts', "import y from '../test/support/temp-dir.js';")).to.have.length(1);
    expect(violationsOf('workers/x.ts', "import y from '../bench/run.js';")).to.have.length(1);
    expect(violationsOf('server/core/x.ts', "import express from 'express';")).to.deep.equal([]);
  });
});
