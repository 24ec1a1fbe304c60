/**
 * PostgreSQL is out of a backup's scope: the note says so and gives the `pg_dump` command to
 * run (the URL without its password; pg_dump reads PGPASSWORD or ~/.pgpass).
 */
export function postgresNote(url: string, dumpFile: string): string {
  let safe: string;
  try {
    const parsed = new URL(url);
    parsed.password = '';
    safe = parsed.toString();
  } catch {
    safe = '<your [memory] db_path URL>';
  }
  return (
    'The long-term store is PostgreSQL, which a backup does not hold. Save it with: ' +
    `pg_dump --format=custom --file=${shellQuote(dumpFile)} ${shellQuote(safe)}`
  );
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
