import type { Db } from "./client.ts";

/**
 * A statement prepared once per database and kept with it: drizzle builds its SQL once instead of on
 * every call (about 0.2 ms of CPU a query, bench/render-floor.ts), and PostgreSQL parses it once a
 * connection. For the queries every signed-in page runs; `name` must be unique among them.
 */
export function preparedStatement<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let statement = made.get(db);
    if (statement === undefined) {
      statement = make(db);
      made.set(db, statement);
    }
    return statement;
  };
}
