/**
 * `npm run adopt -- [--dry-run] [--password P] [--hidden] [PATH...]`: makes albums of the
 * folders of photos under ALBUMS_DIR (or under the given paths, relative to it) that are not
 * albums yet (server/core/albums/adopt.ts). `--dry-run` prints what it would make and writes
 * nothing. The gallery and the admin notice the new albums within seconds, without a restart.
 *
 * Exit code: 0 when every folder found was adopted (or none was found); 1 when some could not
 * be (each is listed with the reason: a read-only folder, an album.json written meanwhile);
 * 2 for a bad argument or an albums directory that cannot be read.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type AdoptableFolder, adoptFolders, findAdoptable } from '../server/core/albums/adopt.js';
import { loadConfig } from '../server/core/config.js';
import { parseRelativePath } from '../server/core/paths.js';

const USAGE = 'usage: npm run adopt -- [--dry-run] [--password <password>] [--hidden] [<folder> ...]';

const describe = (f: AdoptableFolder, opts: { password?: string | undefined; hidden?: boolean }) => {
  const what = [
    f.date ? `dated ${f.date}` : undefined,
    `${f.media} file${f.media === 1 ? '' : 's'}`,
    opts.password ? 'with a password' : undefined,
    opts.hidden ? 'hidden' : undefined,
  ];
  return `${f.path}  →  “${f.title}” (${what.filter(Boolean).join(', ')})`;
};

/** A folder argument as a path under the albums directory: relative to it, or absolute inside it. */
function folderArgument(arg: string, albumsDir: string): string {
  const rel = path.isAbsolute(arg) ? path.relative(albumsDir, arg) : arg.replace(/^\.\/+/, '');
  const trimmed = rel.split(path.sep).join('/').replace(/\/+$/, '');
  return trimmed === '' ? '' : parseRelativePath(trimmed, 'folder');
}

const parseCommandLine = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean' }, password: { type: 'string' }, hidden: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseCommandLine>;
  try {
    args = parseCommandLine(argv);
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  const { password, hidden = false } = args.values;
  if (password !== undefined && password === '') {
    console.error(`--password must not be empty\n${USAGE}`);
    return 2;
  }
  let under: string[];
  let folders: AdoptableFolder[];
  try {
    under = args.positionals.map((arg) => folderArgument(arg, config.albumsDir));
    folders = await findAdoptable(config.albumsDir, under);
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  console.log(`Albums folder: ${config.albumsDir}`);
  if (folders.length === 0) {
    console.log('No folder to adopt: every folder holding photos is an album already.');
    return 0;
  }
  if (args.values['dry-run']) {
    for (const f of folders) console.log(`would adopt ${describe(f, { password, hidden })}`);
    console.log(`${folders.length} folder${folders.length === 1 ? '' : 's'} would become albums (dry run: nothing written).`);
    return 0;
  }
  const outcomes = await adoptFolders(config.albumsDir, folders, { password, hidden });
  let failed = 0;
  for (const o of outcomes) {
    if (o.adopted) console.log(`adopted ${describe(o.folder, { password, hidden })}`);
    else {
      failed++;
      console.error(`not adopted ${o.folder.path}: ${o.reason}`);
    }
  }
  const adopted = outcomes.length - failed;
  console.log(
    `${adopted} album${adopted === 1 ? '' : 's'} made${failed ? `, ${failed} folder${failed === 1 ? '' : 's'} not adopted` : ''}. A running gallery shows them within seconds.`,
  );
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error).message);
    process.exit(2);
  },
);
