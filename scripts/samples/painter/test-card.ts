/** The upright test card of the orientation fixtures and the rotated video. */
import { addSun } from './pieces.js';
import { n, Svg } from './svg.js';

/** Seven-segment digit as rectangles (no fonts needed, so output is the same everywhere). */
function digit(d: number, x: number, y: number, s: number, fill: string): string {
  const seg: Record<string, [number, number, number, number]> = {
    a: [0.15, 0, 0.7, 0.12],
    b: [0.82, 0.08, 0.18, 0.42],
    c: [0.82, 0.5, 0.18, 0.42],
    d: [0.15, 0.88, 0.7, 0.12],
    e: [0, 0.5, 0.18, 0.42],
    f: [0, 0.08, 0.18, 0.42],
    g: [0.15, 0.44, 0.7, 0.12],
  };
  const on = ['abcdef', 'bc', 'abged', 'abgcd', 'fgbc', 'afgcd', 'afgedc', 'abc', 'abcdefg', 'abfgcd'][d]!;
  return [...on]
    .map((k) => {
      const [sx, sy, sw, sh] = seg[k]!;
      return `<rect x="${n(x + sx * s * 0.6)}" y="${n(y + sy * s)}" width="${n(sw * s * 0.6)}" height="${n(sh * s)}" fill="${fill}"/>`;
    })
    .join('');
}

/** Upright test card: sky on top, ground below, an up arrow, the letter F and the number. */
export function orientationCard(w: number, h: number, num: number): Svg {
  const svg = new Svg(w, h);
  svg.rect(
    svg.linear([
      [0, '#5b8fd8'],
      [0.62, '#cfe3f7'],
      [0.62, '#6a8f3c'],
      [1, '#3f5e22'],
    ]),
  );
  addSun(svg, w * 0.85, h * 0.16, h * 0.07, '#fff7d6', '#ffe9a0', 3);
  const s = Math.min(h * 0.5, w * 0.32);
  const fx = w * 0.1;
  const fy = h * 0.18;
  // the letter F: stem, top bar, middle bar
  svg.add(
    `<g fill="#1d2433"><rect x="${n(fx)}" y="${n(fy)}" width="${n(s * 0.16)}" height="${n(s)}"/>` +
      `<rect x="${n(fx)}" y="${n(fy)}" width="${n(s * 0.6)}" height="${n(s * 0.16)}"/>` +
      `<rect x="${n(fx)}" y="${n(fy + s * 0.42)}" width="${n(s * 0.45)}" height="${n(s * 0.14)}"/></g>`,
  );
  svg.add(digit(num, w * 0.36, fy, s, '#b3261e'));
  // up arrow
  const ax = w * 0.68;
  const aw = w * 0.14;
  svg.add(
    `<path d="M${n(ax)},${n(fy)} L${n(ax + aw / 2)},${n(fy + s * 0.35)} L${n(ax + aw * 0.18)},${n(fy + s * 0.35)} ` +
      `L${n(ax + aw * 0.18)},${n(fy + s)} L${n(ax - aw * 0.18)},${n(fy + s)} L${n(ax - aw * 0.18)},${n(fy + s * 0.35)} ` +
      `L${n(ax - aw / 2)},${n(fy + s * 0.35)} Z" fill="#1d2433"/>`,
  );
  // a marker in the top-left corner
  svg.add(`<rect x="0" y="0" width="${n(h * 0.08)}" height="${n(h * 0.08)}" fill="#b3261e"/>`);
  return svg;
}
