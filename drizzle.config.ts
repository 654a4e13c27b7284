import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration after a schema change; commit it.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
});
