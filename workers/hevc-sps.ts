/**
 * The picture size an HEVC decoder will make, read from the sequence parameter set (SPS) in
 * an `hvcC` box (ISO/IEC 14496-15, 8.3.3; the SPS syntax of ITU-T H.265, 7.3.2.2). A HEIF
 * item's `ispe` only declares a size; the SPS is what the decoder allocates, so a file that
 * declares small tiles cannot make it decode large ones unseen (workers/heif-items.ts).
 */

/** `hvcC` fields before its arrays of parameter sets. */
const HVCC_HEADER_BYTES = 23;
const SPS_NAL_TYPE = 33;
/** A parameter set is tens of bytes; one claiming more is read up to this. */
const MAX_SPS_BYTES = 1024;

/** The coded picture size of the first SPS in the body of an `hvcC` box; undefined when there is none or it cannot be read. */
export function hevcPictureSize(hvcC: Buffer): { width: number; height: number } | undefined {
  if (hvcC.length < HVCC_HEADER_BYTES) return undefined;
  let at = HVCC_HEADER_BYTES - 1;
  const arrays = hvcC.readUInt8(at++);
  for (let a = 0; a < arrays && at + 3 <= hvcC.length; a++) {
    const type = hvcC.readUInt8(at) & 0x3f;
    const count = hvcC.readUInt16BE(at + 1);
    at += 3;
    for (let n = 0; n < count && at + 2 <= hvcC.length; n++) {
      const length = hvcC.readUInt16BE(at);
      const nal = hvcC.subarray(at + 2, Math.min(hvcC.length, at + 2 + length));
      at += 2 + length;
      if (type === SPS_NAL_TYPE) return spsPictureSize(nal);
    }
  }
  return undefined;
}

function spsPictureSize(nal: Buffer): { width: number; height: number } | undefined {
  // The two-byte NAL unit header, then the payload without its emulation prevention bytes.
  const bits = new BitReader(unescaped(nal.subarray(2, 2 + MAX_SPS_BYTES)));
  try {
    bits.skip(4); // sps_video_parameter_set_id
    const maxSubLayersMinus1 = bits.read(3);
    bits.skip(1); // sps_temporal_id_nesting_flag
    // profile_tier_level(1, maxSubLayersMinus1): the general profile (88 bits) and level (8 bits)...
    bits.skip(96);
    // ...then which sub-layers carry a profile and a level of their own, padded to 8 entries.
    const present: [boolean, boolean][] = [];
    for (let i = 0; i < maxSubLayersMinus1; i++) present.push([bits.read(1) === 1, bits.read(1) === 1]);
    if (maxSubLayersMinus1 > 0) bits.skip(2 * (8 - maxSubLayersMinus1));
    for (const [profile, level] of present) bits.skip((profile ? 88 : 0) + (level ? 8 : 0));
    bits.readExpGolomb(); // sps_seq_parameter_set_id
    if (bits.readExpGolomb() === 3) bits.skip(1); // chroma_format_idc 4:4:4, separate_colour_plane_flag
    const width = bits.readExpGolomb();
    const height = bits.readExpGolomb();
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** The RBSP of a NAL unit: every 0x000003 becomes 0x0000. */
function unescaped(payload: Buffer): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of payload) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

/** Big-endian bits, as H.265's u(n) and ue(v); RangeError past the end. */
class BitReader {
  #at = 0;
  constructor(private readonly bytes: Buffer) {}

  read(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.#at >> 3;
      if (byte >= this.bytes.length) throw new RangeError('past the end of the parameter set');
      value = value * 2 + ((this.bytes[byte]! >> (7 - (this.#at & 7))) & 1);
      this.#at++;
    }
    return value;
  }

  skip(count: number): void {
    if ((this.#at + count) >> 3 > this.bytes.length) throw new RangeError('past the end of the parameter set');
    this.#at += count;
  }

  /** ue(v): leading zeros, a one, then as many bits. A picture side fits in 32 bits. */
  readExpGolomb(): number {
    let zeros = 0;
    while (this.read(1) === 0) {
      if (++zeros > 31) throw new RangeError('an exp-Golomb code too long');
    }
    return 2 ** zeros - 1 + this.read(zeros);
  }
}
