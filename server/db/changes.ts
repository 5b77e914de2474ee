import type { PGlite } from "@electric-sql/pglite";
import { Client } from "pg";

/** The channel migration 0030's triggers notify, with the changed table's name, when a transaction that changed it commits. */
export const changeChannel = "academy_changes";

/** The tables whose changes are announced on the channel (migration 0030). */
export type ChangedTable = "feedback" | "enrolments" | "unpublished_courses" | "users" | "user";

/** A table's name after a change to it commits; null when changes may have been missed (the listening connection broke or came back). */
export type ChangeListener = (table: string | null) => void;

export interface ChangeFeed {
  /** True while every committed change is being received: what is read from the database may be kept only then. */
  readonly live: boolean;
  subscribe(listener: ChangeListener): () => void;
  close(): Promise<void>;
}

/** The listeners of a feed, told of each change in turn. */
function listeners() {
  const all = new Set<ChangeListener>();
  return {
    add(listener: ChangeListener) {
      all.add(listener);
      return () => void all.delete(listener);
    },
    tell(table: string | null) {
      for (const listener of all) listener(table);
    },
  };
}

/** Changes in an embedded database: PGlite is one process, so its notifications reach every reader of it. */
export async function pgliteChanges(client: PGlite): Promise<ChangeFeed> {
  const heard = listeners();
  const stop = await client.listen(changeChannel, (payload) => heard.tell(payload));
  return { live: true, subscribe: heard.add, close: () => stop() };
}

/** The waits before each attempt to listen again after the connection broke, in milliseconds; the last repeats. */
const reconnectDelays = [100, 1_000, 5_000, 30_000];

/**
 * Changes in a PostgreSQL server shared by many processes: one connection of this process's own,
 * outside the pool, LISTENs. While it is down the feed is not live, and when it listens again every
 * listener hears null, since changes in between were not heard.
 */
export async function postgresChanges(connectionString: string): Promise<ChangeFeed> {
  const heard = listeners();
  let client: Client | null = null;
  let live = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const broke = (broken: Client) => {
    if (client !== broken) return;
    client = null;
    live = false;
    heard.tell(null);
    broken.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, reconnectDelays[Math.min(failures++, reconnectDelays.length - 1)]).unref();
  };

  async function connect(): Promise<void> {
    const next = new Client({ connectionString });
    client = next;
    next.on("error", () => broke(next));
    next.on("end", () => broke(next));
    next.on("notification", (message) => {
      if (message.channel === changeChannel) heard.tell(message.payload ?? null);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${changeChannel}`);
    } catch {
      broke(next);
      return;
    }
    if (client !== next || closed) return;
    failures = 0;
    live = true;
    // Whatever was kept before the connection broke may have changed since.
    heard.tell(null);
  }

  await connect();
  return {
    get live() {
      return live;
    },
    subscribe: heard.add,
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      live = false;
      await open?.end().catch(() => {});
    },
  };
}
