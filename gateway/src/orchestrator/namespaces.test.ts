import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import { runNamespaceConformance } from './namespace-conformance.ts';

runNamespaceConformance('SQLite', () => openSqliteDatabase(':memory:'));
