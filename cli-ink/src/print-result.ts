import type { Output } from './output.ts';

/**
 * A command's result: with `--json` exactly one JSON document on stdout (`data`), else the
 * human-readable `text()`. Every command that prints data goes through here or prints its own
 * JSON document the same way.
 */
export function printResult(
  output: Output,
  options: { json?: boolean },
  data: unknown,
  text: () => string,
): void {
  output.out(options.json ? JSON.stringify(data, null, 2) : text());
}
