/**
 * Which source files exist only for tests: fake servers, the shared conformance suites, the
 * test helpers under testing/ folders and the fixtures under __fixtures__/ folders. Tests
 * import them from the sources; the build leaves them out of dist/ (the `exclude` list of
 * tsconfig.build.json), and scripts/build.ts fails when one slips in.
 */

/** Whether a path (source or compiled, any separator) is a test-only module. */
export function isTestOnlyModule(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const file = parts.at(-1) ?? '';
  return (
    /\.test\.(ts|tsx|js)$/.test(file) ||
    /conformance/.test(file) ||
    parts.some((part) => part === 'testing' || part === '__fixtures__' || part.startsWith('fake-'))
  );
}
