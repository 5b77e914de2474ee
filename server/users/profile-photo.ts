import { profilePhoto } from "../../common/limits.ts";
import { UserError } from "../errors.ts";

/** Enough for any phone's photo at 2 MB; a bigger image is only pixels to decode for a 256-pixel square. */
const maxPhotoPixels = 24_000_000;

/** 400 for a photo we cannot use, 429 for one upload too many. */
export class PhotoError extends UserError {
  override name = "PhotoError";
  constructor(message: string, status = 400) {
    super(message, status);
  }
}

/** Recognises JPEG, PNG and WebP by their first bytes, whatever the file is called. */
export function photoType(bytes: Buffer): "jpeg" | "png" | "webp" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  return null;
}

/** Checks an upload and turns it into a 256 × 256 WebP; the original never reaches storage. */
export async function processProfilePhoto(bytes: Buffer): Promise<Buffer> {
  if (bytes.length === 0) throw new PhotoError("Choose a photo to upload.");
  if (bytes.length > profilePhoto.maxBytes) throw new PhotoError(`That photo is larger than ${profilePhoto.maxMegabytes} MB. Choose a smaller one.`);
  if (!photoType(bytes)) throw new PhotoError("That file is not a JPEG, PNG or WebP image.");
  // Loaded on the first upload: the image library is megabytes of heap a server otherwise never uses.
  const { default: sharp } = await import("sharp");
  // The header says how many pixels decoding would make: a tiny file of one colour can hold 40 million.
  const { width = 0, height = 0 } = await sharp(bytes)
    .metadata()
    .catch(() => ({ width: 0, height: 0 }));
  if (width * height > maxPhotoPixels) {
    throw new PhotoError(`That photo is ${width.toLocaleString("en-IN")} × ${height.toLocaleString("en-IN")} pixels. Choose one of ${maxPhotoPixels / 1_000_000} megapixels or fewer.`);
  }
  try {
    return await sharp(bytes, { limitInputPixels: maxPhotoPixels })
      .rotate()
      .resize(256, 256, { fit: "cover", position: "attention" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new PhotoError("We could not read that image. It may be damaged; try another one.");
  }
}
