/**
 * dist/ holds no fake server, conformance suite, test helper or fixture: the build's file
 * selection (tsconfig.build.json, read as tsc reads it) leaves every test-only module out, and
 * the predicate the build checks dist/ with recognises each kind.
 */
import { globSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildSelection } from './build/transpile.ts';
import { isTestOnlyModule } from './test-only-modules.ts';

/** What tsc selects from tsconfig.build.json, to hold the build's own reading of it against. */
function tscSelection(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile('tsconfig.build.json', undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error('tsconfig.build.json could not be read');
  return parsed.fileNames;
}

describe('test-only modules', () => {
  it('recognises fake servers, conformance suites, testing/ helpers, __fixtures__/ and tests', () => {
    for (const path of [
      'gateway/src/memory/long-term-conformance.ts',
      'dist/gateway/src/memory/long-term-search-conformance.js',
      'gateway/src/providers/conformance.ts',
      'gateway/src/memory/vectors/testing/fake-qdrant-server.ts',
      'gateway/src/testing/fake-llm/server.ts',
      'dist/gateway/src/testing/test-gateway.js',
      'cli-ink/src/program.test.ts',
      'gateway\\src\\testing\\chat-gateway.ts',
      'gateway/src/memory/embedder/__fixtures__/load-probe.ts',
      'dist/gateway/src/memory/embedder/__fixtures__/load-probe.js',
      'web/src/__fixtures__/status.json',
    ]) {
      expect(isTestOnlyModule(path), path).toBe(true);
    }
    for (const path of [
      'gateway/src/run.ts',
      'dist/gateway/src/memory/long-term.js',
      'cli-ink/src/commands/status.ts',
      'gateway/src/tools/executors/local.ts',
    ]) {
      expect(isTestOnlyModule(path), path).toBe(false);
    }
  });

  it('are left out of the build, which keeps every other source module', () => {
    const selected = buildSelection(process.cwd());
    expect(selected.filter(isTestOnlyModule)).toEqual([]);
    const byTsc = tscSelection().map((file) => file.replace(`${process.cwd()}/`, ''));
    expect(selected).toEqual(byTsc.sort());

    const sources = globSync(['common/**/*.ts', 'gateway/src/**/*.ts', 'cli-ink/src/**/*.ts']);
    const production = sources.filter((file) => !isTestOnlyModule(file));
    expect(sources.length).toBeGreaterThan(production.length);
    expect(new Set(selected)).toEqual(new Set(production));
  });
});
