/** Why a request cannot be handed to a route action as a form, or null when it can. */
export interface FormBodyProblem {
  status: 400 | 415;
  message: string;
}

const formTypes = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * Browsers send forms only as URL-encoded or multipart bodies, and no field of ours takes a NUL
 * character (PostgreSQL cannot store one in text). Anything else is refused here, once, before a
 * route action reads it: an action's `request.formData()` would throw on a JSON or broken body.
 * Reads a clone, so the action still gets the body.
 */
export async function formBodyProblem(request: Request): Promise<FormBodyProblem | null> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!formTypes.has(type)) {
    return { status: 415, message: "Forms are accepted only as a web form (URL-encoded or multipart). Nothing was changed." };
  }
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return { status: 400, message: "This form arrived incomplete or garbled, so nothing was changed. Reload the page and send it again." };
  }
  for (const [name, value] of form) {
    if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) {
      return { status: 400, message: "The form contains a NUL character, which no field accepts. Remove it and send the form again." };
    }
  }
  return null;
}
