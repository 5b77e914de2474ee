import { createContext, type RouterContextProvider } from "react-router";
import type { NoticeKey } from "./notice.ts";
import type { Viewer } from "./auth/access.ts";
import type { Authorized } from "./api/credentials.ts";
import type { ApiDocument } from "./api/v1.ts";
import type { CliLogin } from "./auth/cli-login.ts";
import type { Auth } from "./auth/index.ts";
import type { PageSessions } from "./auth/page-session.ts";
import type { Catalog } from "./catalog/index.ts";
import type { FieldCipher } from "./crypto/field-encryption.ts";
import type { Db } from "./db/client.ts";
import type { SharedReads } from "./db/shared-reads.ts";
import type { Shop } from "./commerce/shop.ts";
import type { Logger } from "./logger.ts";
import type { SandboxGateway } from "./payments/sandbox.ts";
import type { FileStorage } from "./storage/index.ts";
import type { DomainChecker } from "./websites/index.ts";

/** What every loader and action may use on the server. */
export interface AppServices {
  catalog: Catalog;
  db: Db;
  /** What is the same for every visitor, kept in the process until the database announces a change (the domains' shared… functions take it). */
  sharedReads: SharedReads;
  publicUrl: string;
  auth: Auth;
  /** The signed-in person of a page request, or null (server/auth/page-session.ts). */
  pageSession: PageSessions;
  cipher: FieldCipher;
  cliLogin: CliLogin;
  /** The public API's OpenAPI document, for /api-tools. */
  apiDocument: ApiDocument;
  /** The caller a bearer token (CLI session or API key) stands for, counted against its API rate limit. */
  authorizeApi: (token: string) => Promise<Authorized | null>;
  logger: Logger;
  /** Reports an error the request failed with on the request's own log line (server/logger.ts, reportError). */
  reportError: (error: unknown) => void;
  googleEnabled: boolean;
  /** GA4 measurement id, or null when analytics is off. */
  analyticsId: string | null;
  storage: FileStorage;
  /** Where customers' domains point (the website page only: each lookup is cached for minutes). */
  hosting: DomainChecker;
  shop: Shop;
  /** The local payment gateway, when it is the provider. */
  sandbox: SandboxGateway | null;
}

export const appServices = createContext<AppServices>();

/** The signed-in person for this request, set by the root middleware; null when signed out. */
export const viewerContext = createContext<Viewer | null>(null);

/** A message this page shows once (see server/notice.ts). */
export const noticeContext = createContext<NoticeKey | null>(null);

/** The signed-in person on a page the root middleware already keeps signed-out visitors away from. */
export function requireViewer(context: Readonly<RouterContextProvider>): Viewer {
  const viewer = context.get(viewerContext);
  if (!viewer) throw new Response(null, { status: 401 });
  return viewer;
}

/** Per-document values entry.server needs: the CSP nonce and the inlined stylesheet text. */
export interface DocumentRequest {
  nonce: string;
  inlineStylesheet(href: string): string | undefined;
  /** True when the request asks for loader data (React Router's `.data` URLs), not a document. */
  dataRequest: boolean;
  /**
   * Large HTML a loader hands to this document's render rather than to its loader data, which the
   * page would carry a second time, escaped, for hydration (see app/lib/server-html.ts).
   */
  serverHtml: Map<string, string>;
  /** An error the HTTP layer answered with, which the catch-all route shows as the site's error page. */
  serverError?: ServerError;
  /**
   * The document as entry.server rendered it, for the HTTP layer to compress, cache and send: reading
   * it back from the Response's body would copy it twice more through the Fetch API's streams.
   */
  rendered?: Buffer<ArrayBuffer>;
}

/** A refusal or failure of the HTTP layer's own (a body too large, a cross-site form), before any route ran. */
export interface ServerError {
  status: number;
  message: string;
}

export const documentRequest = createContext<DocumentRequest>();
