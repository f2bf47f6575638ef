/**
 * The keep-list of TIFF and EXIF tags (docs/api.md#location-privacy): the tags whose values a
 * served file keeps, per kind of IFD. Every tag not listed has its value zeroed: MakerNote,
 * UserComment, ImageDescription, the XP* tags of Windows, IPTC (33723), Photoshop's resources
 * (34377), GeoTIFF's tags, owner names and serial numbers, private and unknown tags. XMP
 * (700) is blanked as an empty packet (xmp-blank.ts). The GPS IFD keeps nothing.
 *
 * What is kept describes the picture (its structure, so it still decodes and shows as it did:
 * size, strips and tiles, compression, colour, orientation, resolution, ICC profile) and the
 * camera and exposure a family looks at (make, model, lens, dates and time zones, exposure,
 * aperture, ISO, flash, focal length, copyright and artist).
 */

/** IFD0, IFD1 (the thumbnail), a TIFF's pages and SubIFDs. */
const PICTURE = [
  0x00fe, // NewSubfileType
  0x00ff, // SubfileType
  0x0100, // ImageWidth
  0x0101, // ImageLength
  0x0102, // BitsPerSample
  0x0103, // Compression
  0x0106, // PhotometricInterpretation
  0x0107, // Threshholding
  0x0108, // CellWidth
  0x0109, // CellLength
  0x010a, // FillOrder
  0x0112, // Orientation
  0x0115, // SamplesPerPixel
  0x0116, // RowsPerStrip
  0x0118, // MinSampleValue
  0x0119, // MaxSampleValue
  0x011a, // XResolution
  0x011b, // YResolution
  0x011c, // PlanarConfiguration
  0x0122, // GrayResponseUnit
  0x0123, // GrayResponseCurve
  0x0124, // T4Options
  0x0125, // T6Options
  0x0128, // ResolutionUnit
  0x0129, // PageNumber
  0x012d, // TransferFunction
  0x013d, // Predictor
  0x013e, // WhitePoint
  0x013f, // PrimaryChromaticities
  0x0140, // ColorMap
  0x0141, // HalftoneHints
  0x0142, // TileWidth
  0x0143, // TileLength
  0x014c, // InkSet
  0x014e, // NumberOfInks
  0x0150, // DotRange
  0x0152, // ExtraSamples
  0x0153, // SampleFormat
  0x0154, // SMinSampleValue
  0x0155, // SMaxSampleValue
  0x0156, // TransferRange
  0x015b, // JPEGTables
  0x0200, // JPEGProc
  0x0203, // JPEGRestartInterval (old-style JPEG)
  0x0205, // JPEGLosslessPredictors
  0x0206, // JPEGPointTransforms
  0x0211, // YCbCrCoefficients
  0x0212, // YCbCrSubSampling
  0x0213, // YCbCrPositioning
  0x0214, // ReferenceBlackWhite
  0x80e3, // Matteing (SGI)
  0x80e4, // DataType (SGI)
  0x80e5, // ImageDepth (SGI)
  0x80e6, // TileDepth (SGI)
  0x8773, // InterColorProfile (ICC)
  0x010f, // Make
  0x0110, // Model
  0x0131, // Software
  0x0132, // DateTime
  0x013b, // Artist
  0x8298, // Copyright
  0x4746, // Rating (Windows)
  0x4749, // RatingPercent (Windows)
];

/** The Exif IFD (and EXIF tags some writers put in IFD0). */
const CAMERA = [
  0x829a, // ExposureTime
  0x829d, // FNumber
  0x8822, // ExposureProgram
  0x8827, // ISO
  0x8830, // SensitivityType
  0x8831, // StandardOutputSensitivity
  0x8832, // RecommendedExposureIndex
  0x8833, // ISOSpeed
  0x8834, // ISOSpeedLatitudeyyy
  0x8835, // ISOSpeedLatitudezzz
  0x9000, // ExifVersion
  0x9003, // DateTimeOriginal
  0x9004, // DateTimeDigitized
  0x9010, // OffsetTime
  0x9011, // OffsetTimeOriginal
  0x9012, // OffsetTimeDigitized
  0x9101, // ComponentsConfiguration
  0x9102, // CompressedBitsPerPixel
  0x9201, // ShutterSpeedValue
  0x9202, // ApertureValue
  0x9203, // BrightnessValue
  0x9204, // ExposureBiasValue
  0x9205, // MaxApertureValue
  0x9206, // SubjectDistance
  0x9207, // MeteringMode
  0x9208, // LightSource
  0x9209, // Flash
  0x920a, // FocalLength
  0x9214, // SubjectArea (a point in the frame)
  0x9290, // SubSecTime
  0x9291, // SubSecTimeOriginal
  0x9292, // SubSecTimeDigitized
  0xa000, // FlashpixVersion
  0xa001, // ColorSpace
  0xa002, // PixelXDimension
  0xa003, // PixelYDimension
  0xa20b, // FlashEnergy
  0xa20e, // FocalPlaneXResolution
  0xa20f, // FocalPlaneYResolution
  0xa210, // FocalPlaneResolutionUnit
  0xa214, // SubjectLocation (a point in the frame)
  0xa215, // ExposureIndex
  0xa217, // SensingMethod
  0xa300, // FileSource
  0xa301, // SceneType
  0xa302, // CFAPattern
  0xa401, // CustomRendered
  0xa402, // ExposureMode
  0xa403, // WhiteBalance
  0xa404, // DigitalZoomRatio
  0xa405, // FocalLengthIn35mmFilm
  0xa406, // SceneCaptureType
  0xa407, // GainControl
  0xa408, // Contrast
  0xa409, // Saturation
  0xa40a, // Sharpness
  0xa40c, // SubjectDistanceRange
  0xa432, // LensSpecification
  0xa433, // LensMake
  0xa434, // LensModel
  0xa460, // CompositeImage
  0xa461, // SourceImageNumberOfCompositeImage
  0xa462, // SourceExposureTimesOfCompositeImage
  0xa500, // Gamma
];

/** The Interoperability IFD. */
const INTEROP = [
  0x0001, // InteropIndex
  0x0002, // InteropVersion
  0x1000, // RelatedImageFileFormat
  0x1001, // RelatedImageWidth
  0x1002, // RelatedImageLength
];

export type IfdKind = 'picture' | 'exif' | 'interop' | 'gps';

const KEPT: Readonly<Record<IfdKind, ReadonlySet<number>>> = {
  picture: new Set([...PICTURE, ...CAMERA]),
  exif: new Set([...PICTURE, ...CAMERA]),
  interop: new Set(INTEROP),
  gps: new Set(),
};

/** Whether an entry of `tag` in an IFD of `kind` keeps its value. */
export const keepsValue = (kind: IfdKind, tag: number): boolean => KEPT[kind].has(tag);

/** Tags whose values are other IFDs, walked with the keep-list of their kind. */
export const IFD_POINTERS: ReadonlyMap<number, IfdKind> = new Map([
  [0x8769, 'exif'], // ExifIFD
  [0x8825, 'gps'], // GPSInfo
  [0xa005, 'interop'], // InteropIFD
  [0x014a, 'picture'], // SubIFDs
]);

/** Where a picture IFD's pixels are: offsets and byte counts. */
export const PIXEL_DATA: readonly (readonly [offsets: number, counts: number])[] = [
  [0x0111, 0x0117], // StripOffsets, StripByteCounts
  [0x0144, 0x0145], // TileOffsets, TileByteCounts
];

/** The JPEG thumbnail of IFD1 (and old-style JPEG TIFFs): its offset and length, walked as a JPEG. */
export const JPEG_INTERCHANGE = { offset: 0x0201, length: 0x0202 } as const;

/** Old-style JPEG's tables: offsets of 64-byte quantisation tables and of Huffman tables (16 counts and at most 256 values). */
export const OLD_JPEG_TABLES: ReadonlyMap<number, number> = new Map([
  [0x0207, 64], // JPEGQTables
  [0x0208, 16 + 256], // JPEGDCTables
  [0x0209, 16 + 256], // JPEGACTables
]);

export const XMP_TAG = 0x02bc;

/** Bytes per component of the TIFF field types (13: an IFD offset; 16–18: BigTIFF's, never read here). */
export const TYPE_BYTES: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
