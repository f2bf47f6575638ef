/** Rows of pastel houses with terracotta roofs climbing a hill, at golden hour. */
import { mix } from '../colour.js';
import { rockFilter } from '../filters.js';
import { addCloudLayer, addSky, addSun, addVignette, addWash } from '../pieces.js';
import type { Rng } from '../rng.js';
import { hillPath } from '../shapes.js';
import { n, Svg } from '../svg.js';

export interface RooftopOptions {
  sky: string[];
  sun: { x: number; y: number; r: number; core: string; glow: string };
  facades: string[];
  roof: string;
  haze: string;
  river?: string;
}

/** Rows of pastel houses with terracotta roofs climbing a hill (Lisbon's Alfama at golden hour). */
export function rooftopScene(rng: Rng, w: number, h: number, o: RooftopOptions): Svg {
  const svg = new Svg(w, h);
  addSky(svg, o.sky, 0.55);
  addSun(svg, o.sun.x * w, o.sun.y * h, o.sun.r * w, o.sun.core, o.sun.glow);
  addCloudLayer(svg, rng, 0, h * 0.42, mix(o.sun.glow, '#ffffff', 0.5), 0.7);
  if (o.river) {
    svg.add(`<path d="${hillPath(rng, w, h * 0.42, h * 0.02, h * 0.5, 4)}" fill="${mix(o.haze, '#5a4a6a', 0.5)}"/>`);
    svg.add(`<rect x="0" y="${n(h * 0.46)}" width="${w}" height="${n(h * 0.2)}" fill="${o.river}"/>`);
    svg.add(
      `<rect x="${n(o.sun.x * w - w * 0.1)}" y="${n(h * 0.46)}" width="${n(w * 0.2)}" height="${n(h * 0.12)}" fill="${o.sun.core}" opacity="0.35" filter="${svg.blur(w * 0.03, 4)}"/>`,
    );
  }
  const rows = 6;
  for (let r = 0; r < rows; r += 1) {
    const t = r / (rows - 1);
    const base = h * (0.5 + 0.5 * t ** 0.9) + h * 0.04;
    const scale = (0.45 + 1.3 * t) * (Math.min(w, h) / 750);
    const parts: string[] = [];
    let x = -rng.range(0, 60) * scale;
    while (x < w) {
      const bw = rng.range(60, 130) * scale;
      const bh = rng.range(70, 140) * scale;
      const top = base - bh + rng.range(-12, 12) * scale;
      const facade = rng.pick(o.facades);
      const lit = svg.linear(
        [
          [0, mix(facade, '#fff4dc', 0.25)],
          [1, mix(facade, '#3a2a30', 0.25)],
        ],
        1,
        0.3,
      );
      parts.push(`<rect x="${n(x)}" y="${n(top)}" width="${n(bw + 1)}" height="${n(h - top)}" fill="${lit}"/>`);
      // roof
      const over = 6 * scale;
      const rh = rng.range(14, 26) * scale;
      const roof = mix(o.roof, rng.chance(0.5) ? '#000000' : '#ffb080', rng.range(0, 0.25));
      parts.push(
        `<path d="M${n(x - over)},${n(top)} L${n(x + bw * 0.2)},${n(top - rh)} L${n(x + bw * 0.8)},${n(top - rh)} L${n(x + bw + over)},${n(top)} Z" fill="${roof}"/>`,
      );
      parts.push(`<rect x="${n(x - over)}" y="${n(top - 1)}" width="${n(bw + 2 * over)}" height="${n(3 * scale)}" fill="${mix(roof, '#000000', 0.35)}"/>`);
      // windows
      const cols = Math.max(1, Math.floor(bw / (32 * scale)));
      const floors = Math.max(1, Math.floor((h - top) / (40 * scale)));
      for (let f = 0; f < Math.min(floors, 6); f += 1) {
        for (let c = 0; c < cols; c += 1) {
          const wx = x + (bw / cols) * (c + 0.5) - 6 * scale;
          const wy = top + 14 * scale + f * 40 * scale;
          parts.push(
            `<rect x="${n(wx - 2 * scale)}" y="${n(wy - 2 * scale)}" width="${n(16 * scale)}" height="${n(24 * scale)}" fill="#f4efe6" opacity="0.85"/>`,
          );
          parts.push(
            `<rect x="${n(wx)}" y="${n(wy)}" width="${n(12 * scale)}" height="${n(20 * scale)}" fill="${rng.chance(0.12) ? '#ffd27a' : mix('#2a2326', facade, 0.15)}"/>`,
          );
        }
      }
      x += bw + rng.range(-2, 4) * scale;
    }
    svg.add(`<g>${parts.join('')}</g>`);
    // aerial perspective
    svg.add(`<rect x="0" y="${n(base - 200 * scale)}" width="${w}" height="${n(h)}" fill="${o.haze}" opacity="${n(0.28 * (1 - t))}"/>`);
  }
  // weathered plaster
  svg.add(
    `<rect x="0" y="${n(h * 0.4)}" width="${w}" height="${n(h * 0.6)}" fill="#ffffff" filter="${rockFilter(svg, rng, 0.03, 0.03)}" style="mix-blend-mode:soft-light" opacity="0.35"/>`,
  );
  addWash(svg, o.sun.glow, 0.3, o.sun.x, o.sun.y);
  addVignette(svg, 0.4);
  return svg;
}
