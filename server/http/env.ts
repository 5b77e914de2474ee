import type { IncomingMessage } from "node:http";

/** What every Hono handler here can read: per-request values and, under Node, the raw request. */
export type HttpEnv = { Variables: { nonce: string; requestId: string }; Bindings: { incoming?: IncomingMessage } };
