/** A small SVG builder: shared <defs> with unique ids, gradients, blurs and clip paths. */

/** Coordinates rounded to one decimal keep the SVG short. */
export const n = (v: number) => (Math.round(v * 10) / 10).toString();

export class Svg {
  private defs: string[] = [];
  private body: string[] = [];
  private ids = 0;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {}

  id(prefix: string): string {
    this.ids += 1;
    return `${prefix}${this.ids}`;
  }
  def(markup: string): void {
    this.defs.push(markup);
  }
  add(markup: string): void {
    this.body.push(markup);
  }
  /** Runs fn and takes back the markup it added, e.g. to reuse it inside a <defs> group. */
  capture(fn: () => void): string[] {
    const mark = this.body.length;
    fn();
    return this.body.splice(mark);
  }

  /** Vertical (or any direction) linear gradient; returns its url(). */
  linear(stops: Array<[number, string, number?]>, x2 = 0, y2 = 1): string {
    const id = this.id('lg');
    const s = stops.map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`).join('');
    this.def(`<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${s}</linearGradient>`);
    return `url(#${id})`;
  }

  radial(stops: Array<[number, string, number?]>, cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = this.id('rg');
    const s = stops.map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`).join('');
    this.def(`<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${s}</radialGradient>`);
    return `url(#${id})`;
  }

  /** A filter over the element's box, or over `region` where its result spills out; returns its url(). */
  filter(prefix: string, primitives: string, region = 'x="0" y="0" width="100%" height="100%"'): string {
    const id = this.id(prefix);
    this.def(`<filter id="${id}" ${region} color-interpolation-filters="sRGB">${primitives}</filter>`);
    return `url(#${id})`;
  }

  /** Gaussian blur filter; sx/sy in pixels. */
  blur(sx: number, sy = sx): string {
    return this.filter('bl', `<feGaussianBlur stdDeviation="${n(sx)} ${n(sy)}"/>`, 'x="-50%" y="-50%" width="200%" height="200%"');
  }

  clipRect(x: number, y: number, w: number, h: number): string {
    const id = this.id('cr');
    this.def(`<clipPath id="${id}"><rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}"/></clipPath>`);
    return `url(#${id})`;
  }

  rect(fill: string, extra = ''): void {
    this.add(`<rect x="0" y="0" width="${this.w}" height="${this.h}" fill="${fill}" ${extra}/>`);
  }

  toString(): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      `width="${this.w}" height="${this.h}" viewBox="0 0 ${this.w} ${this.h}">` +
      `<defs>${this.defs.join('')}</defs>${this.body.join('')}</svg>`
    );
  }
}
