/**
 * Loaded by .mocharc*.json before any test: the servers and scripts the tests start read no
 * developer's `.env` (server/core/env-file.ts), so a suite gives the same result on every
 * checkout. Tests of the settings file name their own with GALLERY_ENV.
 */
process.env.GALLERY_ENV = '/dev/null';
