import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config.ts";
import { ServiceUnavailable } from "../errors.ts";
import type { FileStorage } from "./index.ts";
import { keyOfUrl, newKey, parseKey, uploadsPath } from "./keys.ts";

/** The bucket named by S3_* cannot be used; the message says why and what to set. */
export class StorageError extends Error {
  override name = "StorageError";
}

const unavailableMessages = {
  put: "Your photo could not be stored: our file storage is not answering. Nothing was changed; try again in a few minutes.",
  get: "This file cannot be shown just now: our file storage is not answering. Try again in a few minutes.",
  remove: "Your photo could not be deleted: our file storage is not answering. Nothing was changed; try again in a few minutes.",
};

/** The bucket failed or did not answer (an outage, not our mistake): 503, with what could not be done. The SDK's error is its cause. */
export class StorageUnavailable extends ServiceUnavailable {
  override name = "StorageUnavailable";
  constructor(operation: keyof typeof unavailableMessages, cause: unknown) {
    super(unavailableMessages[operation]);
    this.cause = cause;
  }
}

/**
 * Objects in an S3-compatible bucket, one per key, checked with a HeadBucket first so a missing
 * bucket or refused credentials stop the start rather than the first upload. Throws StorageError.
 */
export async function openS3Storage(settings: S3Settings): Promise<FileStorage> {
  const { bucket } = settings;
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    credentials: settings.credentials,
    forcePathStyle: settings.forcePathStyle,
    // An endpoint that never answers should fail the request, not hold it until the client gives up.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    client.destroy();
    throw new StorageError(bucketProblem(settings, error));
  }
  return {
    kind: "s3",
    async put(prefix, body, extension) {
      const key = newKey(prefix, extension);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: parseKey(key)?.contentType })).catch((error: unknown) => {
        throw new StorageUnavailable("put", error);
      });
      return uploadsPath + key;
    },
    async get(key) {
      if (!parseKey(key)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = await object.Body?.transformToByteArray();
        return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw new StorageUnavailable("get", error);
      }
    },
    async remove(url) {
      const key = keyOfUrl(url);
      // S3 answers a delete of a missing object with success, so an unknown key needs no check.
      if (!key) return;
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch((error: unknown) => {
        throw new StorageUnavailable("remove", error);
      });
    },
  };
}

function bucketProblem(settings: S3Settings, error: unknown): string {
  const where = settings.endpoint ? `at ${settings.endpoint}` : `in AWS region ${settings.region}`;
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  if (status === 404) return `The S3 bucket "${settings.bucket}" does not exist ${where}. Create it, or set S3_BUCKET to one that does.`;
  if (status === 403) {
    return `The S3 bucket "${settings.bucket}" ${where} refused our credentials (403 Forbidden). Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that they may list, read, write and delete in the bucket.`;
  }
  if (status === 301) return `The S3 bucket "${settings.bucket}" is not in ${settings.region}. Set S3_REGION to the bucket's region.`;
  if ((error as Error).name === "CredentialsProviderError") {
    return `No credentials for the S3 bucket "${settings.bucket}": set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or run with an AWS role the SDK can find.`;
  }
  const reason = status ? `it answered ${status}` : (error as Error).message;
  return `Could not reach the S3 bucket "${settings.bucket}" ${where}: ${reason}. Check S3_ENDPOINT, S3_REGION and the network.`;
}
