/** SVG filters (librsvg renders them): textures made of turbulence, lighting and blends. */
import type { Rng } from './rng.js';
import { n, type Svg } from './svg.js';

/** Fractal noise as the filter's result "n"; `frequency` as SVG writes it ("fx fy" or one value). */
function noise(rng: Rng, frequency: string, octaves: number): string {
  return `<feTurbulence type="fractalNoise" baseFrequency="${frequency}" numOctaves="${octaves}" seed="${rng.int(1, 9999)}" result="n"/>`;
}

/** Relief texture: lit turbulence, clipped to the element's own shape. fx/fy: noise frequencies. */
export function rockFilter(svg: Svg, rng: Rng, fx: number, fy: number): string {
  return svg.filter(
    'rock',
    noise(rng, `${fx.toFixed(5)} ${fy.toFixed(5)}`, 5) +
      `<feDiffuseLighting in="n" lighting-color="#ffffff" surfaceScale="5" diffuseConstant="1.1" result="l"><feDistantLight azimuth="200" elevation="38"/></feDiffuseLighting>` +
      `<feComposite in="l" in2="SourceAlpha" operator="in"/>`,
  );
}

/** Softens a group, then gives it a leafy relief texture (multiply with lit noise). */
export function foliageFilter(svg: Svg, rng: Rng, blur: number, freq: number): string {
  return svg.filter(
    'leaf',
    `<feGaussianBlur in="SourceGraphic" stdDeviation="${n(Math.max(0.3, blur))}" result="g"/>` +
      noise(rng, freq.toFixed(4), 3) +
      `<feDiffuseLighting in="n" lighting-color="#ffffff" surfaceScale="4" diffuseConstant="1.45" result="l"><feDistantLight azimuth="225" elevation="45"/></feDiffuseLighting>` +
      `<feBlend in="l" in2="g" mode="multiply" result="b"/>` +
      `<feComposite in="b" in2="g" operator="in"/>`,
    'x="-10%" y="-10%" width="120%" height="120%"',
  );
}

/** Breaks a snow gradient into patches: alpha of the gradient times thresholded noise. */
export function snowFilter(svg: Svg, rng: Rng): string {
  // noise becomes white with alpha = noise; alpha out = 1.6 a(gradient) + a(noise) - 0.9, so the
  // summits stay white and the snow line breaks up into patches.
  return svg.filter(
    'snow',
    noise(rng, '0.018 0.007', 4) +
      `<feColorMatrix in="n" type="matrix" values="0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 0 0" result="a"/>` +
      `<feComposite in="SourceGraphic" in2="a" operator="arithmetic" k1="0" k2="1.6" k3="1" k4="-0.9"/>`,
  );
}

/** Wobbles a mirrored picture like a breeze on the water, and softens it. */
export function waterFilter(svg: Svg, rng: Rng): string {
  return svg.filter(
    'water',
    noise(rng, '0.004 0.09', 2) +
      `<feDisplacementMap in="SourceGraphic" in2="n" scale="${n(svg.w * 0.012)}" xChannelSelector="R" yChannelSelector="G" result="d"/>` +
      `<feGaussianBlur in="d" stdDeviation="1.5 3"/>`,
  );
}

/** Clouds: thresholded fractal noise (frequencies fx, 3.2 fx) painted in the element's colour. */
export function cloudFilter(svg: Svg, rng: Rng, fx: number): string {
  return svg.filter(
    'cl',
    noise(rng, `${fx.toFixed(5)} ${(fx * 3.2).toFixed(5)}`, 5) +
      `<feColorMatrix in="n" type="matrix" values="0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 2.8 0 0 0 -1.15" result="c"/>` +
      `<feComposite in="c" in2="SourceGraphic" operator="arithmetic" k1="1" k2="0" k3="0" k4="0"/>`,
  );
}
