// The admin's JSON API, as the page uses it. Every error answer is {"error": "..."}.
import { t } from '../strings.js';

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function parse(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, body?.error ?? `${response.status} ${response.statusText}`, body);
  return body;
}

export async function api(method, url, body) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return parse(await fetch(url, init));
}

/**
 * Uploads one file with XMLHttpRequest, the only browser API that reports upload progress.
 * onProgress gets a fraction from 0 to 1. Resolves with the JSON answer, rejects with ApiError.
 */
export function uploadFile(url, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body?.error ?? t('api.uploadFailed', { status: xhr.status }), body));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, t('api.network'))));
    xhr.addEventListener('abort', () => reject(new ApiError(0, t('api.cancelled'))));
    const form = new FormData();
    form.append('files', file, file.name);
    xhr.send(form);
  });
}
