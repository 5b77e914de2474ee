import type { IncomingMessage } from "node:http";

/** What every Hono handler here can read: per-request values and, under Node, the raw request. */
export type HttpEnv = {
  /** `routine`: a health probe or a static file, logged only when it fails. */
  Variables: { nonce: string; requestId: string; routine?: boolean };
  Bindings: { incoming?: IncomingMessage };
};
