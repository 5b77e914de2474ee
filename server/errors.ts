/** An error the user can act on: its message is shown to them as it is, with its HTTP status. */
export class UserError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export class NotFound extends UserError {
  override name = "NotFound";
  constructor(message = "We could not find that.") {
    super(message, 404);
  }
}

/** Something that was here and is not any more, on purpose (a course taken off sale). */
export class Gone extends UserError {
  override name = "Gone";
  constructor(message: string) {
    super(message, 410);
  }
}

export class Forbidden extends UserError {
  override name = "Forbidden";
  constructor(message: string) {
    super(message, 403);
  }
}

export class ValidationError extends UserError {
  override name = "ValidationError";
  constructor(message: string) {
    super(message, 400);
  }
}

export class Conflict extends UserError {
  override name = "Conflict";
  constructor(message: string) {
    super(message, 409);
  }
}

/** A page cursor a list did not give out: refused rather than ignored, so a client's bug is seen at once. */
export class BadCursor extends ValidationError {
  override name = "BadCursor";
  constructor() {
    super("That page cursor is not one we gave out. Start again without it, then pass each answer's nextCursor.");
  }
}

/** Too many requests of one kind from one person: says when to try again (the API sends it as Retry-After). */
export class TooManyRequests extends UserError {
  override name = "TooManyRequests";
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message, 429);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A wait as people say it: "40 seconds", "7 minutes". */
const inWords = (seconds: number) => (seconds < 90 ? `${seconds} ${seconds === 1 ? "second" : "seconds"}` : `${Math.ceil(seconds / 60)} minutes`);

/** The refusal of a request past one person's limit, saying what was done too often and when to try again. */
export function refuseTooMany(done: string, retryAfterSeconds: number): never {
  const seconds = Math.max(1, retryAfterSeconds);
  throw new TooManyRequests(`${done} Try again in ${inWords(seconds)}.`, seconds);
}

export class ServiceUnavailable extends UserError {
  override name = "ServiceUnavailable";
  constructor(message: string) {
    super(message, 503);
  }
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

/** Runs a domain call for a page action: a UserError becomes a result to show; anything else is a bug and propagates. */
export async function attempt<T>(call: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof UserError) return { ok: false, status: error.status, message: error.message };
    throw error;
  }
}
