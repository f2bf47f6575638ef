/** A head-and-shoulders studio portrait: backdrop, rim light, one figure. */
import { mix } from '../colour.js';
import { rockFilter } from '../filters.js';
import { addBokeh, addVignette, addWash, silhouette } from '../pieces.js';
import type { Rng } from '../rng.js';
import { n, Svg } from '../svg.js';

export interface PortraitOptions {
  backdrop: [string, string];
  skin: string;
  rim: string;
  hair: string;
  clothes: string;
  bokeh?: string[];
  offset: number;
  tilt: number;
}

export function portraitScene(rng: Rng, w: number, h: number, o: PortraitOptions): Svg {
  const svg = new Svg(w, h);
  svg.rect(
    svg.radial(
      [
        [0, o.backdrop[0]],
        [1, o.backdrop[1]],
      ],
      0.5 + o.offset * 0.5,
      0.35,
      0.8,
    ),
  );
  svg.rect('#ffffff', `filter="${rockFilter(svg, rng, 0.004, 0.004)}" style="mix-blend-mode:soft-light" opacity="0.35"`);
  if (o.bokeh) addBokeh(svg, rng, 22, o.bokeh, w * 0.03, w * 0.1, 0, 0.7);
  const s = w * rng.range(0.13, 0.19);
  const cx = w * (0.5 + o.offset);
  const headY = h * rng.range(0.32, 0.42);
  const sil = silhouette(cx, headY, s, o.tilt, h + 10);
  // rim light: a blurred, light copy slightly offset toward the light
  svg.add(
    `<g fill="${o.rim}" filter="${svg.blur(s * 0.05)}" transform="translate(${n(-s * 0.045)},${n(-s * 0.025)})">${sil.hair}${sil.head}${sil.fringe}${sil.body}</g>`,
  );
  const skin = svg.linear(
    [
      [0, mix(o.skin, '#000000', 0.05)],
      [0.5, mix(o.skin, '#000000', 0.4)],
      [1, mix(o.skin, '#000000', 0.72)],
    ],
    1,
    0.15,
  );
  const cloth = svg.linear(
    [
      [0, mix(o.clothes, '#ffffff', 0.12)],
      [1, mix(o.clothes, '#000000', 0.5)],
    ],
    1,
    0.3,
  );
  svg.add(`<g filter="${svg.blur(s * 0.03)}">`);
  svg.add(`<g fill="${o.hair}">${sil.hair}</g>`);
  svg.add(`<g fill="#ffffff" style="mix-blend-mode:soft-light" opacity="0.45" filter="${rockFilter(svg, rng, 0.05, 0.012)}">${sil.hair}</g>`);
  svg.add(`<g fill="${cloth}">${sil.body}</g>`);
  svg.add(`<g fill="${skin}">${sil.head}</g>`);
  svg.add(`<g fill="${o.hair}">${sil.fringe}</g>`);
  svg.add(`</g>`);
  // a soft key light from the left
  addWash(svg, mix(o.rim, '#ffffff', 0.3), 0.2, 0.1, 0.3);
  addVignette(svg, 0.55);
  return svg;
}
