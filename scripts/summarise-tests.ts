/**
 * Prints the closing lines of a CI run over vitest JSON reports: each failed test (its file, its
 * full name and the first line of its failure), then one plain line, "N passed, N failed, N skipped".
 * The failures come last so that the tail of a long log names them.
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';

interface AssertionResult {
  fullName: string;
  status: string;
  failureMessages?: string[];
}

interface FileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults?: AssertionResult[];
}

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: FileResult[];
}

const firstLine = (text: string | undefined): string =>
  (text ?? '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
for (const file of process.argv.slice(2)) {
  let report: Report;
  try {
    report = JSON.parse(await readFile(file, 'utf8')) as Report;
  } catch {
    failures.push(`no test report at ${file}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const result of report.testResults ?? []) {
    const where = relative(process.cwd(), result.name);
    const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      failures.push(`FAILED ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (result.status === 'failed' && failedTests.length === 0) {
      // A file that failed outside any test (an import error, a hook) counts as one failure.
      failures.push(`FAILED ${where}: ${firstLine(result.message)}`);
      failed += 1;
    }
  }
}
for (const line of failures) process.stdout.write(`${line}\n`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
