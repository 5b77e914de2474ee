const errorCodes: Record<number, string> = {
  400: "invalid_input",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  500: "server_error",
  503: "unavailable",
};

/** The API's one error shape, `{ error: { code, message } }`, wherever the answer is made. */
export const apiErrorBody = (status: number, message: string) => ({ error: { code: errorCodes[status] ?? "error", message } });
