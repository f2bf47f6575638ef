/** Landform outlines as SVG paths: jagged ridges and soft hills. */
import type { Rng } from './rng.js';
import { n } from './svg.js';

/** 1-D midpoint displacement: a jagged ridge line of 2^levels + 1 points across the width. */
export function ridgePoints(rng: Rng, w: number, baseY: number, amp: number, rough: number, levels = 7): Array<[number, number]> {
  const count = 2 ** levels;
  const ys = new Array<number>(count + 1).fill(0);
  ys[0] = baseY + rng.range(-amp, amp) * 0.5;
  ys[count] = baseY + rng.range(-amp, amp) * 0.5;
  let step = count;
  let scale = amp;
  while (step > 1) {
    const half = step / 2;
    for (let i = half; i < count; i += step) {
      ys[i] = (ys[i - half]! + ys[i + half]!) / 2 + rng.range(-scale, scale);
    }
    step = half;
    scale *= rough;
  }
  return ys.map((y, i) => [(i / count) * w, y]);
}

export function areaPath(points: Array<[number, number]>, bottom: number): string {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return `M${n(first[0])},${n(bottom)} ${points.map(([x, y]) => `L${n(x)},${n(y)}`).join(' ')} L${n(last[0])},${n(bottom)} Z`;
}

/** Soft smooth hills through a few random points (quadratic midpoints). */
export function hillPath(rng: Rng, w: number, baseY: number, amp: number, bottom: number, bumps: number): string {
  const pts: Array<[number, number]> = [];
  for (let i = 0; i <= bumps; i += 1) pts.push([(i / bumps) * w, baseY + rng.range(-amp, amp)]);
  let d = `M${n(-10)},${n(bottom)} L${n(-10)},${n(pts[0]![1])} `;
  for (let i = 0; i < pts.length - 1; i += 1) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    d += `Q${n(x0)},${n(y0)} ${n((x0 + x1) / 2)},${n((y0 + y1) / 2)} `;
  }
  d += `L${n(w + 10)},${n(pts[pts.length - 1]![1])} L${n(w + 10)},${n(bottom)} Z`;
  return d;
}
