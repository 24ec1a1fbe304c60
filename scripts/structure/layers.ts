/**
 * The layers of gateway/src that the structure check enforces. An area is a domain folder; it
 * shows other areas one public face, its `ports.ts`. The kernel is shared infrastructure that
 * any area may import and that itself imports no area. Composition files build the gateway
 * from the areas and may import anything. Under testing/, `fakes/` holds the low-level fakes
 * (kernel level: they import no area) and `gateway/` the whole-gateway test builders
 * (composition level).
 */
export const AREAS = [
  'agent',
  'approvals',
  'backup',
  'canvas',
  'channels',
  'db',
  'events',
  'hub',
  'local-model',
  'logs',
  'mcp',
  'memory',
  'migrate',
  'orchestrator',
  'privacy',
  'providers',
  'push',
  'scale-out',
  'settings',
  'skills',
  'status',
  'tools',
  'usage',
  'voice',
  'web-client',
] as const;

export const KERNEL = [
  'config',
  'errors.ts',
  'lifecycle',
  'http',
  'ws',
  'observability',
  'text',
  'redis',
  'models',
  'version.ts',
] as const;

export const COMPOSITION = [
  'gateway.ts',
  'gateway-contract.ts',
  'index.ts',
  'main.ts',
  'run.ts',
] as const;

export const SOURCE_ROOT = 'gateway/src';

/** The two halves of the shared test kit: low-level fakes and whole-gateway builders. */
export const TEST_FAKES = 'testing/fakes';
export const TEST_BUILDERS = 'testing/gateway';

const escape = (name: string): string => name.replaceAll('.', '\\.');
const folderOrFile = (name: string): string =>
  name.endsWith('.ts') ? `${escape(name)}$` : `${escape(name)}/`;

/** Regular expressions (over paths relative to the repository root) for each layer. */
export const patterns = {
  area: `^${SOURCE_ROOT}/(${AREAS.map(escape).join('|')})/`,
  areaPorts: `^${SOURCE_ROOT}/(${AREAS.map(escape).join('|')})/ports\\.ts$`,
  kernel: `^${SOURCE_ROOT}/(${KERNEL.map(folderOrFile).join('|')})`,
  composition: `^${SOURCE_ROOT}/(${COMPOSITION.map(folderOrFile).join('|')})`,
  testFakes: `^${SOURCE_ROOT}/${TEST_FAKES}/`,
  testBuilders: `^${SOURCE_ROOT}/${TEST_BUILDERS}/`,
  /** Test files, conformance suites, fakes and testing/ folders (scripts/test-only-modules.ts). */
  testOnly: '(\\.test\\.ts$|conformance[^/]*$|/testing/|/fake-[^/]*)',
  testFile: '\\.test\\.ts$',
};
