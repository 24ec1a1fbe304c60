import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { describeKeywordSearch } from './keyword-search.ts';
import type { Database, OpenDatabase } from './database.ts';
import { resolveDbPath } from '../config/state-dir.ts';
import { defineArea } from '../lifecycle/install.ts';

export interface DatabaseAreaDeps {
  openDatabase: OpenDatabase;
  /** A SQLite file path or a `postgresql://` URL (`[memory] db_path` resolved). */
  location: string;
  logger: Logger;
}

export interface DatabaseArea extends Area {
  /** The open database; 503 "The database is starting" before its phase has run. */
  readonly database: () => Database;
}

/** The long-term SQL store (SQLite file or PostgreSQL): memories, the allowlist. */
export function databaseArea(deps: DatabaseAreaDeps): DatabaseArea {
  const database = late<Database>('The database');
  return {
    name: 'database',
    async start() {
      const db = await deps.openDatabase(deps.location);
      database.set(db);
      deps.logger.info({ backend: db.kind, location: db.location }, 'database open');
    },
    status(): Record<string, string> {
      const db = database.peek();
      return db
        ? { database: db.kind, keyword_search: describeKeywordSearch(db.keywordSearch) }
        : {};
    },
    database: database.get,
    close: () => database.peek()?.close(),
  };
}

/** How the database is opened (main.ts passes the real one; tests may pass their own). */
export interface DatabaseOptions {
  openDatabase: OpenDatabase;
}

export const database = defineArea(
  'database',
  (kernel, _needs: object, options: DatabaseOptions | undefined) => {
    if (!options) throw new Error('The database area needs openDatabase');
    return databaseArea({
      openDatabase: options.openDatabase,
      location: resolveDbPath(kernel.config.memory.db_path, kernel.paths),
      logger: kernel.logger,
    });
  },
);
