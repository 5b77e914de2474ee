/** Why PostgreSQL could not be reached, as codes node-postgres and the server report them. */
const reasons: Record<string, string> = {
  ECONNREFUSED: "nothing accepts connections there",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name could not be resolved just now",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host cannot be reached",
  "28P01": "the password was refused",
  "28000": "the server does not let this user connect",
  "3D000": "that database does not exist",
};

/**
 * A sentence for an operator when DATABASE_URL leads nowhere, or null for any other error. The URL
 * is shown without its password.
 */
export function connectionFailure(error: unknown, databaseUrl: string | undefined): string | null {
  const reason = databaseUrl && reasons[(error as { code?: string } | null)?.code ?? ""];
  if (!reason) return null;
  const url = new URL(databaseUrl);
  if (url.password) url.password = "****";
  return `Cannot open the database at DATABASE_URL (${url.toString()}): ${reason} (${(error as Error).message}). Check that PostgreSQL runs there and that DATABASE_URL names the right host, port, user, password and database.`;
}
