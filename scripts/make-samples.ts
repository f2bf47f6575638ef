/**
 * Regenerates the sample albums and home content (`npx tsx scripts/make-samples.ts [--out <dir>]`).
 * The generator lives in scripts/samples/; its options are described in scripts/samples/main.ts.
 */
import './samples/main.js';
