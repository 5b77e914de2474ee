import type { IncomingMessage } from "node:http";

/** What every Hono handler here can read: per-request values and, under Node, the raw request. */
export type HttpEnv = {
  /**
   * `nonce`: made only when something asks for it (see requestNonce). `routine`: a health probe, a
   * static file or a cached page, logged only when it fails. `headed`: the response already carries its security
   * headers and request id.
   */
  Variables: { nonce?: string; requestId: string; routine?: boolean; headed?: boolean };
  Bindings: { incoming?: IncomingMessage };
};
