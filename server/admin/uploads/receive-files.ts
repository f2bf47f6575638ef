import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import { HttpError, badRequest } from '../../core/errors.js';
import { formatBytes } from '../../../views/assets/byte-size.js';

/** The multipart field that carries the files (docs/api.md#admin-server). */
export const FILES_FIELD = 'files';

export interface ReceiveOptions {
  /** Where files are streamed to; on the destination's filesystem so the final move is a rename. */
  readonly tempDir: string;
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  /** Decides from the client's file name whether a file is worth receiving at all. */
  readonly accepts: (originalName: string) => boolean;
  /** Why a file that `accepts` refused was skipped, e.g. "Only photos (.jpg, …) are accepted". */
  readonly refusal: string;
}

/** A file received into `tempDir`; whoever receives it must move or remove `tempPath`. */
export interface ReceivedFile {
  readonly position: number;
  readonly originalName: string;
  readonly tempPath: string;
  readonly size: number;
}

export interface SkippedFile {
  readonly position: number;
  readonly originalName: string;
  readonly error: string;
}

export interface Received {
  readonly files: readonly ReceivedFile[];
  readonly skipped: readonly SkippedFile[];
}

/**
 * Streams the request's files to disk with multer (disk storage: a 2 GB file never sits in
 * memory). Files with a refused name are skipped without being written. Past a limit, multer
 * removes every file of the request and this rejects with 413: nothing is kept.
 */
export async function receiveFiles(req: Request, res: Response, opts: ReceiveOptions): Promise<Received> {
  if (!req.is('multipart/form-data')) {
    throw badRequest(`Expected a multipart/form-data body with the files in the field "${FILES_FIELD}"`);
  }
  await fs.mkdir(opts.tempDir, { recursive: true });

  // Positions keep the per-file results in the order the client sent the files.
  let nextPosition = 0;
  const positionOf = new WeakMap<object, number>();
  const positionByTempName = new Map<string, number>();
  const skipped: SkippedFile[] = [];

  const upload = multer({
    storage: multer.diskStorage({
      destination: (_req, _file, cb) => cb(null, opts.tempDir),
      filename: (_req, file, cb) => {
        const name = `${crypto.randomUUID()}.upload`;
        positionByTempName.set(name, positionOf.get(file) ?? -1);
        cb(null, name);
      },
    }),
    limits: { fileSize: opts.maxFileBytes, files: opts.maxFiles, fields: 20, fieldSize: 64 * 1024, parts: opts.maxFiles + 20 },
    // Browsers send UTF-8 file names; busboy's default (latin1) would garble "Café.jpg".
    defParamCharset: 'utf8',
    fileFilter: (_req, file, cb) => {
      const position = nextPosition++;
      positionOf.set(file, position);
      if (opts.accepts(file.originalname)) return cb(null, true);
      skipped.push({ position, originalName: file.originalname, error: opts.refusal });
      cb(null, false);
    },
  }).array(FILES_FIELD, opts.maxFiles);

  await new Promise<void>((resolve, reject) => {
    upload(req, res, (err: unknown) => (err ? reject(uploadError(err, opts)) : resolve()));
  });

  const files = (Array.isArray(req.files) ? req.files : []).map((f) => ({
    position: positionByTempName.get(f.filename) ?? -1,
    originalName: f.originalname,
    tempPath: f.path,
    size: f.size,
  }));
  return { files, skipped };
}

/** multer and busboy failures as client errors, in our wording; anything else (disk full) stays a 500. */
function uploadError(err: unknown, opts: ReceiveOptions): unknown {
  if (err instanceof multer.MulterError) {
    const name = (err as { filename?: unknown }).filename;
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return new HttpError(
          413,
          `File too large${typeof name === 'string' ? `: "${name}"` : ''} is over the limit of ${formatBytes(opts.maxFileBytes)} per file; nothing was kept`,
        );
      case 'LIMIT_FILE_COUNT':
        return new HttpError(413, `Too many files: at most ${opts.maxFiles} per request; nothing was kept`);
      case 'LIMIT_UNEXPECTED_FILE':
        return badRequest(`Unexpected file field "${err.field ?? ''}": send the files in the field "${FILES_FIELD}"`);
      default:
        return badRequest(`Invalid upload: ${err.message}`);
    }
  }
  // busboy's parse errors ("Unexpected end of form") and aborted requests are the client's.
  const message = err instanceof Error ? err.message : String(err);
  if (/multipart|boundary|unexpected end of form|malformed|request (aborted|closed)/i.test(message)) {
    return badRequest(`Invalid upload: ${message}`);
  }
  return err;
}
