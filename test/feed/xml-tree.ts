/**
 * A strict reader of the XML the feeds write (no DTD, no CDATA, no comments): it throws where a
 * feed reader would give up — a tag left open or closed out of order, an attribute without
 * quotes or given twice, a bare `&` or `<`, an unknown entity, a character XML 1.0 cannot hold,
 * anything after the root element. Enough to read an Atom document back and check it, without
 * a parser package the project does not have.
 */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** The element's own text (not its children's), entities resolved. */
  text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*$/;
const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function unescapeXml(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`a bare < in ${where}`);
  if (NOT_XML.test(raw)) throw new Error(`a character XML cannot hold in ${where}`);
  return raw.replace(/&([^;]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new Error(`a bare & in ${where}`);
    if (ref in PREDEFINED) return PREDEFINED[ref] as string;
    const num = /^#(?:x([0-9a-fA-F]+)|(\d+))$/.exec(ref);
    if (!num) throw new Error(`unknown entity &${ref}; in ${where}`);
    return String.fromCodePoint(num[1] ? Number.parseInt(num[1], 16) : Number(num[2]));
  });
}

function readAttrs(source: string, tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let rest = source.trim();
  while (rest) {
    const m = /^([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')\s*/.exec(rest);
    if (!m) throw new Error(`malformed attributes in <${tag}>: ${rest}`);
    const name = m[1] as string;
    if (!NAME.test(name) || name in attrs) throw new Error(`bad or repeated attribute ${name} in <${tag}>`);
    attrs[name] = unescapeXml(m[2] ?? m[3] ?? '', `<${tag} ${name}>`);
    rest = rest.slice(m[0].length);
  }
  return attrs;
}

export function parseXml(xml: string): XmlElement {
  let at = 0;
  const prolog = /^<\?xml\s[^?]*\?>\s*/.exec(xml);
  if (prolog) at = prolog[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const text = xml.slice(at, lt < 0 ? xml.length : lt);
    if (stack.length === 0) {
      if (text.trim()) throw new Error('text outside the root element');
    } else (stack.at(-1) as XmlElement).text += unescapeXml(text, `<${(stack.at(-1) as XmlElement).name}>`);
    if (lt < 0) break;
    const gt = xml.indexOf('>', lt);
    if (gt < 0) throw new Error('a tag left open at the end');
    const tag = xml.slice(lt + 1, gt);
    at = gt + 1;
    if (tag.startsWith('/')) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1).trim()) throw new Error(`</${tag.slice(1)}> closes ${open ? `<${open.name}>` : 'nothing'}`);
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const name = /^\S+/.exec(body)?.[0] ?? '';
    if (!NAME.test(name)) throw new Error(`bad element name <${name}>`);
    if (stack.length === 0 && root) throw new Error('a second root element');
    const element: XmlElement = { name, attrs: readAttrs(body.slice(name.length), name), children: [], text: '' };
    if (stack.length > 0) (stack.at(-1) as XmlElement).children.push(element);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${(stack.at(-1) as XmlElement).name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** The children named `name`. */
export const childrenNamed = (e: XmlElement, name: string): XmlElement[] => e.children.filter((c) => c.name === name);

/** The one child named `name`; throws when there is none or several. */
export function only(e: XmlElement, name: string): XmlElement {
  const found = childrenNamed(e, name);
  if (found.length !== 1) throw new Error(`<${e.name}> has ${found.length} <${name}>`);
  return found[0] as XmlElement;
}
