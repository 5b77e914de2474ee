import type { S3Settings } from "../config.ts";
import { createDiskStorage } from "./disk.ts";
import type { UploadExtension } from "./keys.ts";

/**
 * Where uploaded files live: the disk by default, an S3-compatible bucket when S3_* is set (DESIGN.md,
 * file storage). Each operation throws StorageUnavailable when the bucket fails or does not answer.
 */
export interface FileStorage {
  readonly kind: "disk" | "s3";
  /**
   * Stores `body` under a new unguessable key, `<prefix>/<32 hex>.<extension>`, and returns the URL
   * path it is served at (/uploads/<key>). A prefix of "<kind>/<owner id>" says whose file it is.
   */
  put(prefix: string, body: Buffer, extension: UploadExtension): Promise<string>;
  /** The file's bytes, or null for a key no `put` made or one since removed. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the file a `put` returned; any other URL is ignored, and so is a file already gone. */
  remove(url: string): Promise<void>;
}

/** The bucket when S3 settings are given (checked to exist and to accept our credentials), else `diskRoot`. Throws StorageError. */
export async function createStorage(options: { s3: S3Settings | undefined; diskRoot: string }): Promise<FileStorage> {
  if (!options.s3) return createDiskStorage(options.diskRoot);
  // The AWS SDK, some 6 MB of heap, is loaded only when a bucket is configured.
  const { openS3Storage } = await import("./s3.ts");
  return openS3Storage(options.s3);
}
