/** Out-of-focus lights, with an optional couple or a banquet table: the wedding night. */
import { mix } from '../colour.js';
import { addBokeh, addCouple, addStringLights, addVignette, silhouette } from '../pieces.js';
import type { Rng } from '../rng.js';
import { n, Svg } from '../svg.js';

export interface BokehOptions {
  background: [string, string];
  colors: string[];
  count: number;
  couple?: string;
  lights?: string;
  table?: string;
}

export function bokehScene(rng: Rng, w: number, h: number, o: BokehOptions): Svg {
  const svg = new Svg(w, h);
  svg.rect(
    svg.linear([
      [0, o.background[0]],
      [1, o.background[1]],
    ]),
  );
  addBokeh(svg, rng, Math.floor(o.count * 0.5), o.colors, w * 0.04, w * 0.11, 0, 1);
  addBokeh(svg, rng, o.count, o.colors, w * 0.012, w * 0.04, 0, 0.8);
  if (o.lights) addStringLights(svg, rng, o.lights);
  if (o.table) {
    // a long banquet table with candles, seen from its end, guests seated on both sides
    const guests: string[] = [];
    for (const t of [0.06, 0.2, 0.38, 0.62]) {
      for (const side of [-1, 1]) {
        const edgeX = w * 0.5 + side * w * (0.2 + 0.6 * t);
        const edgeY = h * (0.62 + 0.38 * t);
        const gs = w * (0.014 + 0.05 * t) * rng.range(0.9, 1.1);
        const sil = silhouette(edgeX + side * gs * 1.6, edgeY - gs * 2.2, gs, rng.range(-12, 12), edgeY + gs * 0.5);
        const tone = mix('#0c0806', o.background[0], 0.3 * (1 - t));
        guests.push(`<g fill="${tone}" filter="${svg.blur(1 + gs * 0.04)}">${sil.hair}${sil.head}${sil.fringe}${sil.body}</g>`);
      }
    }
    svg.add(guests.join(''));
    svg.add(
      `<path d="M${n(w * 0.3)},${n(h * 0.62)} L${n(w * 0.7)},${n(h * 0.62)} L${n(w * 1.1)},${n(h)} L${n(-w * 0.1)},${n(h)} Z" fill="${svg.linear([
        [0, mix(o.table, '#000000', 0.2)],
        [1, o.table],
      ])}"/>`,
    );
    const candles: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const t = i / 6;
      const y = h * (0.64 + 0.3 * t ** 1.4);
      const spread = w * (0.16 + 0.4 * t ** 1.4);
      for (const side of [-1, 1]) {
        const x = w * 0.5 + side * spread * 0.45;
        const s = 0.4 + 1.4 * t;
        candles.push(
          `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(90 * s)}" ry="${n(30 * s)}" fill="${svg.radial([
            [0, '#ffb85a', 0.45],
            [1, '#ffb85a', 0],
          ])}"/>`,
        );
        candles.push(
          `<circle cx="${n(x)}" cy="${n(y - 22 * s)}" r="${n(40 * s)}" fill="${svg.radial([
            [0, '#ffcf7a', 0.6],
            [1, '#ffcf7a', 0],
          ])}"/>`,
        );
        candles.push(`<rect x="${n(x - 3 * s)}" y="${n(y - 20 * s)}" width="${n(6 * s)}" height="${n(20 * s)}" fill="#f6eedf"/>`);
        candles.push(`<ellipse cx="${n(x)}" cy="${n(y - 25 * s)}" rx="${n(2.5 * s)}" ry="${n(5 * s)}" fill="#fff3c8"/>`);
      }
    }
    svg.add(candles.join(''));
  }
  if (o.couple) {
    addCouple(svg, w * 0.5, h * 0.55, w * 0.09, o.couple, 2, [
      [-0.75, 0.1, 10],
      [0.8, -0.3, -7],
    ]);
  }
  addVignette(svg, 0.5);
  return svg;
}
