/**
 * `npm run check:structure`: fails when an area imports another area's internal file, when the
 * kernel or the test fakes import an area, or when modules or areas import each other in a
 * cycle. The rules are in scripts/structure/.
 */
import { checkStructure, describe } from './structure/check.ts';

const started = performance.now();
const report = await checkStructure(process.cwd());
const lines = describe(report);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
for (const line of lines) process.stderr.write(`${line}\n`);
const moduleCycles = report.violations.filter((v) => v.rule === 'no-cycle').length;
const summary =
  `structure: ${report.modules} modules in ${seconds} s; ${report.violations.length - moduleCycles} boundary ` +
  `violations, ${moduleCycles} module cycles, ${report.areaCycles.length} area cycles\n`;
process.stdout.write(summary);
process.exitCode = lines.length > 0 ? 1 : 0;
