/**
 * An XMP packet, blanked (docs/api.md#location-privacy). XMP can name a place in any form RDF
 * allows (attributes, elements, CDATA, `rdf:value`, a default namespace, IPTC's location
 * structures, any schema's own property), so no property is kept: the packet is replaced by
 * a minimal well-formed empty one, padded with spaces to the same length (XMP's own padding),
 * or by spaces alone where the packet is shorter than that.
 */
import { type BytePatch, bytesPatch, fillPatch } from './byte-patches.js';

const HEAD = Buffer.from(
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>',
  'latin1',
);
const TAIL = Buffer.from('<?xpacket end="w"?>', 'latin1');
const SPACE = 0x20;

/** The patches that blank the XMP packet of `length` bytes at `at`. */
export function blankXmp(at: number, length: number): BytePatch[] {
  if (length < HEAD.length + TAIL.length) return [fillPatch(at, length, SPACE)];
  return [bytesPatch(at, HEAD), fillPatch(at + HEAD.length, length - HEAD.length - TAIL.length, SPACE), bytesPatch(at + length - TAIL.length, TAIL)];
}

/** The namespace that opens an XMP APP1 segment of a JPEG. */
export const JPEG_XMP_PREFIX = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
