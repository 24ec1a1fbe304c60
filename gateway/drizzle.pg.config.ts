// drizzle-kit config for the PostgreSQL adapter; run from the repo root (npm run db:generate).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './gateway/src/db/postgres/schema.ts',
  out: './gateway/drizzle/pg',
  strict: true,
  verbose: true,
});
