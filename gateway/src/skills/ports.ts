/**
 * The skills area's public face: its port types (declared in types.ts), the hub scanner, the
 * skill store and the checks the migration applies to a skill before it writes one. Other areas
 * import only this file.
 */
export * from './types.ts';
export { scanPackage, createSkillValidator } from './checks.ts';
export {
  createPackageJudge,
  describeTools,
  type DescribedTool,
  type JudgePackage,
  type PackageVerdict,
} from './scanner/judge.ts';
export {
  capDescription,
  checkDescription,
  MAX_DESCRIPTION_CHARS,
  type DescriptionIssue,
} from './scanner/tool-description.ts';
export { codeFile } from './store/manifest.ts';
export { skillNameProblem } from './store/names.ts';
export { withLocalSkillStore } from './store/local-skill-store.ts';
export {
  MAX_SKILL_SOURCE_BYTES,
  describeProblems,
  type SkillEntry,
  type SkillStore,
} from './store/skill-store.ts';
