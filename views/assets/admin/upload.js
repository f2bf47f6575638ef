// Drag-and-drop upload with a progress bar per file. Files go one per request, two at a time,
// so each has its own progress and its own verdict from the server.
import { uploadFile } from './api.js';
import { encodePath, formatBytes, h } from './dom.js';
import { acceptOf, extensionList, mediaKindOf } from './media-types.js';
import { locale, t } from '../strings.js';

const PARALLEL = 2;

function endpointFor(albumPath, name) {
  const kind = mediaKindOf(name);
  if (kind === 'image') return `/api/photos/${encodePath(albumPath)}`;
  if (kind === 'video') return `/api/videos/${encodePath(albumPath)}`;
  return null;
}

/** Returns the upload block for one album; onUploaded runs once a batch has finished with at least one file stored. */
export function albumUploader(albumPath, onUploaded) {
  const list = h('ul', { class: 'uploads', 'aria-label': t('upload.list') });
  const input = h('input', {
    type: 'file',
    multiple: true,
    id: 'upload-input',
    'aria-describedby': 'upload-hint',
    accept: acceptOf('image', 'video'),
    on: {
      change: () => {
        void start([...input.files]);
        input.value = '';
      },
    },
  });
  const zone = h(
    'div',
    { class: 'dropzone' },
    // The field's name for screen readers and voice control, and a bigger target to click.
    h('p', {}, h('label', { for: 'upload-input' }, t('upload.drop')), ' '),
    input,
    h('p', { class: 'hint', id: 'upload-hint' }, t('upload.hint', { photos: extensionList('image'), videos: extensionList('video') })),
  );
  for (const type of ['dragenter', 'dragover']) {
    zone.addEventListener(type, (e) => {
      e.preventDefault();
      zone.classList.add('over');
    });
  }
  for (const type of ['dragleave', 'drop']) zone.addEventListener(type, () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    void start([...e.dataTransfer.files]);
  });

  async function start(files) {
    if (files.length === 0) return;
    const jobs = files.map((file) => ({ file, row: row(file) }));
    list.prepend(...jobs.map((j) => j.row.el));
    let stored = 0;
    const worker = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) if (await send(job)) stored++;
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    if (stored > 0) onUploaded();
  }

  async function send({ file, row: r }) {
    const url = endpointFor(albumPath, file.name);
    if (!url) {
      r.fail(t('upload.notMedia'));
      return false;
    }
    try {
      const answer = await uploadFile(url, file, (fraction) => r.progress(fraction));
      const result = answer.results[0];
      if (result?.ok) {
        r.done(result.file === file.name ? t('upload.stored') : t('upload.storedAs', { name: result.file }));
        return true;
      }
      r.fail(result?.error ?? t('upload.notStored'));
    } catch (err) {
      r.fail(err.body?.results?.[0]?.error ?? err.message);
    }
    return false;
  }

  return h('div', { class: 'uploader' }, zone, list);
}

function row(file) {
  const bar = h('progress', { max: 1, value: 0 });
  const status = h('span', { text: t('upload.waiting', { size: formatBytes(file.size, locale()) }) });
  const el = h('li', {}, h('span', { text: file.name, title: file.name }), bar, status);
  return {
    el,
    progress(fraction) {
      bar.value = fraction;
      status.textContent = fraction < 1 ? t('upload.percent', { percent: Math.round(fraction * 100) }) : t('upload.checking');
    },
    done(message) {
      bar.value = 1;
      status.textContent = message;
      status.className = 'ok';
    },
    fail(message) {
      bar.remove();
      el.insertBefore(h('span', { text: '' }), status);
      status.textContent = message;
      status.className = 'failed';
    },
  };
}
