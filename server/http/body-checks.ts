/** Why a request's body is refused before any handler reads it, or null when it is not. */
export interface BodyProblem {
  status: 400 | 415;
  message: string;
}

const formTypes = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const nulMessage = "The form contains a NUL character, which no field accepts. Remove it and send the form again.";

const mediaType = (request: Request) => request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * Browsers send forms only as URL-encoded or multipart bodies, and no field of ours takes a NUL
 * character (PostgreSQL cannot store one in text). Anything else is refused here, once, before a
 * route action reads it: an action's `request.formData()` would throw on a JSON or broken body.
 * A bodiless POST (a script's `curl -X POST`) is read as the empty form it means, so it gets the
 * action's own answer. Reads a clone, so the action still gets the body.
 */
export async function formRequest(request: Request): Promise<Request | BodyProblem> {
  if (!request.headers.has("content-type") && (await request.clone().arrayBuffer()).byteLength === 0) {
    const headers = new Headers(request.headers);
    headers.set("content-type", "application/x-www-form-urlencoded");
    return new Request(request, { method: request.method, headers, body: "" });
  }
  if (!formTypes.has(mediaType(request))) {
    return { status: 415, message: "Forms are accepted only as a web form (URL-encoded or multipart). Nothing was changed." };
  }
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return { status: 400, message: "This form arrived incomplete or garbled, so nothing was changed. Reload the page and send it again." };
  }
  for (const [name, value] of form) {
    if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) return { status: 400, message: nulMessage };
  }
  return request;
}

/**
 * Whether every string in a parsed JSON value could be stored: no NUL, no lone surrogate (not valid
 * UTF-8). Walked with a list, not by recursion: JSON nested a million deep fits in the body limit,
 * and would overflow the call stack.
 */
function storable(parsed: unknown): boolean {
  const pending: unknown[] = [parsed];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (!value.isWellFormed() || value.includes("\0")) return false;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) pending.push(key, item);
    }
  }
  return true;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const notUtf8Message = "The body is not valid UTF-8 text. Send JSON encoded as UTF-8. Nothing was changed.";
const unstorableMessage = "The request contains a NUL character or a broken Unicode sequence, which no field accepts.";

/**
 * A JSON body with bytes that are not UTF-8 (which decoding would quietly turn into U+FFFD), or
 * with text no database column can hold (a NUL, or half of a surrogate pair, which JSON's \u
 * escapes can spell but UTF-8 cannot), is refused before an endpoint looks anything up with it.
 * Bodies that are not JSON, or not valid JSON, are left to the endpoint to refuse.
 */
export async function jsonBodyProblem(request: Request): Promise<BodyProblem | null> {
  if (mediaType(request) !== "application/json") return null;
  let text: string;
  try {
    text = utf8.decode(await request.clone().arrayBuffer());
  } catch {
    return { status: 400, message: notUtf8Message };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return storable(parsed) ? null : { status: 400, message: unstorableMessage };
}

/**
 * What the JSON API refuses before a handler reads a body: anything but JSON (415), or JSON with
 * text no column can hold (400). Broken JSON is left to the route's validator, which names it.
 */
export async function apiBodyProblem(request: Request): Promise<BodyProblem | null> {
  if (mediaType(request) !== "application/json") return { status: 415, message: "Send the body as JSON, with Content-Type: application/json. Nothing was changed." };
  return jsonBodyProblem(request);
}
