import { createContext } from "react-router";
import type { Catalog } from "./catalog/index.ts";
import type { Db } from "./db/client.ts";

/** What every loader and action may use on the server. */
export interface AppServices {
  catalog: Catalog;
  db: Db;
  publicUrl: string;
}

export const appServices = createContext<AppServices>();

/** Per-document values entry.server needs: the CSP nonce and the inlined stylesheet text. */
export interface DocumentRequest {
  nonce: string;
  inlineStylesheet(href: string): string | undefined;
}

export const documentRequest = createContext<DocumentRequest>();

/** The context keys as the server build sees them; app/entry.server.tsx re-exports them. */
export interface ContextKeys {
  appServices: typeof appServices;
  documentRequest: typeof documentRequest;
}
