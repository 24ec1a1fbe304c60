/**
 * The one verdict on a package's code, used by `POST /hub/scan`, hub installs and the review
 * queue alike, so what the scan says is what the install does: layer 1 (the validator, whose
 * refusals nothing overrides) and layer 2 (the scanner) in one list of findings, plus the
 * tools' descriptions as the model will see them, each checked as data, not instructions.
 */
import type {
  ScanFinding,
  ScanPackageOrLoad,
  ScanResult,
  SkillKind,
  SkillToolSpec,
  ValidateSkill,
  ValidationResult,
} from '../types.ts';
import { findingSink } from './findings.ts';
import { capDescription, checkDescription, MAX_DESCRIPTION_CHARS } from './tool-description.ts';

/** A tool's description as the model will see it (capped), shown to the owner before install. */
export interface DescribedTool {
  name: string;
  description: string;
  /** The code's description was longer than `MAX_DESCRIPTION_CHARS` and was cut. */
  truncated: boolean;
}

export interface PackageVerdict extends ScanResult {
  /** Layer 1 refused the code: no `force` installs it. */
  refused: boolean;
  tool_descriptions: DescribedTool[];
}

export type JudgePackage = (source: string, kind: SkillKind) => Promise<PackageVerdict>;

/** A description and its parameters' descriptions, the texts the model reads for one tool. */
function textsOf(tool: SkillToolSpec): string[] {
  const texts = [tool.description];
  const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties;
  for (const schema of Object.values(properties ?? {})) {
    const text = (schema as { description?: unknown } | null)?.description;
    if (typeof text === 'string') texts.push(text);
  }
  return texts;
}

/** The tools as the model will see them, and what is wrong with their descriptions. */
export function describeTools(tools: readonly SkillToolSpec[]): {
  described: DescribedTool[];
  findings: ScanFinding[];
} {
  const own = new Set<string>();
  for (const tool of tools) {
    own.add(tool.name);
    const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties;
    for (const name of Object.keys(properties ?? {})) own.add(name);
  }
  const findings: ScanFinding[] = [];
  const described = tools.map((tool) => {
    const capped = capDescription(tool.description);
    if (capped.truncated)
      findings.push({
        rule: 'description.truncated',
        line: 1,
        severity: 'low',
        message: `${tool.name}: its description has ${tool.description.length} characters; the model is shown the first ${MAX_DESCRIPTION_CHARS}`,
      });
    for (const text of textsOf(tool))
      for (const issue of checkDescription(text, own))
        findings.push({
          rule: issue.rule,
          line: 1,
          severity: 'high',
          message: `${tool.name}: its description ${issue.message}`,
        });
    return { name: tool.name, description: capped.description, truncated: capped.truncated };
  });
  return { described, findings };
}

export function createPackageJudge(deps: {
  validate: ValidateSkill;
  scan: ScanPackageOrLoad;
}): JudgePackage {
  return async (source, kind) => {
    const validation: ValidationResult = await deps.validate(source, kind);
    const scanned = await deps.scan(source, kind);
    const sink = findingSink();
    for (const f of scanned.findings) sink.add(f.rule, f.line, f.severity, f.message);
    for (const problem of validation.problems)
      sink.add(
        'layer1.blocked',
        problem.line,
        'critical',
        `${problem.construct}: ${problem.message} (refused whatever force says)`,
      );
    const { described, findings } = describeTools(validation.tools);
    // The scanner reads the same descriptions with line numbers; add only what it did not say.
    const said = new Set(scanned.findings.map((f) => f.rule));
    for (const f of findings)
      if (!said.has(f.rule)) sink.add(f.rule, f.line, f.severity, f.message);
    const result = sink.result();
    return {
      flagged: result.flagged || !validation.ok,
      findings: result.findings,
      refused: !validation.ok,
      tool_descriptions: described,
    };
  };
}
