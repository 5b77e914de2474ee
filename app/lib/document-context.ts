import { createContext, useContext } from "react";

/** Set by entry.server for the document render; empty in the browser. */
export interface DocumentValues {
  nonce?: string;
  inlineStylesheet?: (href: string) => string | undefined;
  serverHtml?: ReadonlyMap<string, string>;
}

export const DocumentContext = createContext<DocumentValues>({});

export function useDocumentValues(): DocumentValues {
  return useContext(DocumentContext);
}
