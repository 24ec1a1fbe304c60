// drizzle-kit config for the SQLite adapter; run from the repo root (npm run db:generate).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './gateway/src/db/sqlite/schema.ts',
  out: './gateway/drizzle/sqlite',
  strict: true,
  verbose: true,
});
