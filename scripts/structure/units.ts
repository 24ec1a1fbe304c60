import {
  AREAS,
  COMPOSITION,
  KERNEL,
  SOURCE_ROOT,
  TEST_BUILDERS,
  TEST_FAKES,
  patterns,
} from './layers.ts';

/** One node of the area-level graph and the layer it belongs to. */
export interface Unit {
  name: string;
  layer: 'area' | 'kernel' | 'composition' | 'test-fakes' | 'test-kit' | 'other';
}

const testOnly = new RegExp(patterns.testOnly);

/**
 * The area-level node a module collapses to: its area folder, a kernel folder or file, the
 * composition, or one of the halves of testing/. An area's test kits (testing/ folders,
 * conformance suites) count with their area, so that what they import is part of the area's
 * footprint. `undefined` for modules outside gateway/src.
 */
export function unitOf(path: string): Unit | undefined {
  if (!path.startsWith(`${SOURCE_ROOT}/`)) return undefined;
  const rest = path.slice(SOURCE_ROOT.length + 1);
  const [first = ''] = rest.split('/');
  if ((COMPOSITION as readonly string[]).includes(first))
    return { name: 'composition', layer: 'composition' };
  if ((KERNEL as readonly string[]).includes(first)) return { name: first, layer: 'kernel' };
  if ((AREAS as readonly string[]).includes(first)) return { name: first, layer: 'area' };
  if (first === 'testing') {
    if (rest.startsWith(`${TEST_FAKES}/`)) return { name: TEST_FAKES, layer: 'test-fakes' };
    if (rest.startsWith(`${TEST_BUILDERS}/`)) return { name: TEST_BUILDERS, layer: 'composition' };
    return { name: 'testing', layer: 'test-kit' };
  }
  return { name: first, layer: 'other' };
}

/** Whether a module exists only for tests (a test file, a conformance suite, a testing/ kit). */
export function isTestOnly(path: string): boolean {
  return testOnly.test(path);
}
