/**
 * What one album download may hold, and how many may run: a ZIP is streamed for minutes to
 * clients the server does not control, so each must cost little while it waits for a slow
 * reader, and a reader that stops must not keep its share for ever.
 */

/**
 * Bytes per file read, and the high-water mark of the archive's streams (archiver and its
 * zip engine default to 1 MB each, on both sides). Each of the half-dozen streams between
 * the file and the socket holds about one chunk when the reader stalls: ~768 KB in all.
 * 64 KB would halve that but costs 10–15 % of the throughput (more reads, more turns of
 * every stream per megabyte); 128 KB keeps pace with archiver alone.
 */
export const ZIP_STREAM_CHUNK_BYTES = 128 * 1024;

/** A client that takes no bytes for this long (the response never drains) is disconnected. */
export const ZIP_IDLE_TIMEOUT_MS = 60_000;

/** Archives written at once; past this the download is refused with 503. */
export const MAX_CONCURRENT_ZIPS = 16;

/** Downloads take minutes: a retry in a few seconds would only be refused again. */
export const ZIP_RETRY_AFTER_SECONDS = 30;
