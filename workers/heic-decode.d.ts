/** heic-decode ships no types: the part of its API the media worker uses. */
declare module 'heic-decode' {
  interface DecodedHeif {
    readonly width: number;
    readonly height: number;
    /** RGBA, 4 bytes per pixel, rows top to bottom. */
    readonly data: Uint8ClampedArray;
  }
  /** Decodes the primary image of a HEIC/HEIF file (transformations such as rotation applied). */
  function decode(input: { buffer: Uint8Array }): Promise<DecodedHeif>;
  export default decode;
}
