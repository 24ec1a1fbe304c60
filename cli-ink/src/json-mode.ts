/**
 * `--json` among the words before `--`: the command prints one JSON document on stdout, and
 * a failure is reported as `{"detail": …}` on stderr instead of `hearth: …` (run-cli.ts).
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
