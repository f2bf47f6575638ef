/**
 * Camera EXIF as sharp writes it (IFD0 for the body, IFD2 for the exposure), in the rational
 * forms cameras use. The sample albums' cameras and the test camera are both written with it.
 */
import type { Exif } from 'sharp';

export interface Camera {
  make: string;
  model: string;
  lens: string;
  software: string;
  /** phones have one aperture */
  fixedAperture?: number;
}

export interface Shot {
  fNumber: number;
  exposure: string;
  iso: number;
  focal: number;
  /** EXIF form, `YYYY:MM:DD HH:MM:SS` */
  date: string;
}

export function cameraExif(cam: Camera, shot: Shot): Exif {
  return {
    IFD0: {
      Make: cam.make,
      Model: cam.model,
      Software: cam.software,
      DateTime: shot.date,
    },
    IFD2: {
      LensModel: cam.lens,
      FNumber: cam.fixedAperture ? `${Math.round(cam.fixedAperture * 100)}/100` : `${Math.round(shot.fNumber * 10)}/10`,
      ExposureTime: shot.exposure,
      ISOSpeedRatings: String(shot.iso),
      FocalLength: `${Math.round(shot.focal * 1000)}/1000`,
      DateTimeOriginal: shot.date,
      DateTimeDigitized: shot.date,
    },
  };
}
