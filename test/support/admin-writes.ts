/**
 * Every kind of write the admin makes to the owner's files, over a real temp tree, in a
 * process of its own: test/server/durable-writes.test.ts runs it under strace and reads
 * which system calls it made. Prints `{"root", "cacheDir"}` as its last line; the caller
 * removes the root.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { KeyedQueue } from '../../server/admin/keyed-queue.js';
import { placeFiles } from '../../server/admin/uploads/place-file.js';
import { createAdminFixture } from '../admin/support/admin-fixture.js';

const jpeg = (hue: number) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: hue, g: 120, b: 200 - hue } } })
    .jpeg()
    .toBuffer();

const fx = await createAdminFixture();
const app = request(fx.app);

/** Each step must do what it says, or the trace proves nothing. */
async function step(what: string, call: Promise<request.Response>, status: number): Promise<void> {
  const res = await call;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
}

await step('create an album', app.post('/api/albums').send({ path: 'trip', title: 'Trip' }), 201);
await step('create another', app.post('/api/albums').send({ path: 'other', title: 'Other' }), 201);
await step('edit an album', app.put('/api/albums/trip').send({ title: 'Trip to the sea' }), 200);
await step(
  'upload photos',
  app
    .post('/api/photos/trip')
    .attach('files', await jpeg(10), 'a.jpg')
    .attach('files', await jpeg(90), 'b.jpg'),
  201,
);
await step('rename a photo', app.post('/api/media/trip/a.jpg?action=rename').send({ name: 'renamed.jpg' }), 200);
await step('move a photo', app.post('/api/media/trip/renamed.jpg?action=move').send({ album: 'other' }), 200);
await step('rotate a JPEG', app.post('/api/media/other/renamed.jpg?action=rotate').send({ degrees: 90 }), 200);
await step('delete a photo', app.delete('/api/media/trip/b.jpg'), 200);
await step('edit the home page', app.put('/api/home/intro').send({ title: 'Welcome', body: 'Our photos' }), 200);
await step('replace the landing image', app.post('/api/assets/landing').attach('files', await jpeg(150), 'landing.jpg'), 201);
await step('delete an album', app.delete('/api/albums/other'), 200);
fs.mkdirSync(path.join(fx.albumsDir, '2019', 'lisbon'), { recursive: true });
fs.writeFileSync(path.join(fx.albumsDir, '2019', 'lisbon', 'IMG_1.jpg'), await jpeg(40));
await step('adopt a folder', app.post('/api/adopt').send({ paths: ['2019/lisbon'] }), 200);

// An upload received on another filesystem (a mount inside the tree): copied, not renamed.
const otherDevice = '/dev/shm';
if (fs.existsSync(otherDevice) && fs.statSync(otherDevice).dev !== fs.statSync(fx.albumsDir).dev) {
  const received = path.join(otherDevice, `gallery-upload-${process.pid}.jpg`);
  fs.writeFileSync(received, await jpeg(200));
  await placeFiles({ files: [{ tempPath: received, base: 'from-mount', ext: '.jpg' }], destDir: path.join(fx.albumsDir, 'trip'), queue: new KeyedQueue() });
}

console.log(JSON.stringify({ root: fx.root, cacheDir: fx.cacheDir }));
fx.index.close();
