/**
 * Layer 2, the package scanner (hub installs and `POST /hub/scan`): reads a skill's source
 * without running it and reports blocked constructs and risky patterns — obfuscation,
 * secrets read and sent out, downloads of further code, shell one-liners, persistence,
 * miner and reverse-shell markers, instructions aimed at the model. A high or critical
 * finding flags the package: the hub refuses to install it unless forced.
 *
 * Linear on hostile input: acorn parses in one pass, every text rule is a substring test
 * (no backtracking regular expressions on the package's text), and sources over
 * `MAX_SCAN_BYTES` are flagged unread.
 */
import { SKILL_CAPABILITIES, type ScanPackage, type ScanResult, type SkillKind } from '../types.ts';
import { readJsCapabilities } from '../validate/capabilities.ts';
import { extractJsTools } from '../validate/js-tools.ts';
import { simple, type SimpleVisitors } from 'acorn-walk';
import { combineFacts } from './combine.ts';
import { emptyFacts, type ModuleFacts } from './facts.ts';
import { findingSink, type FindingSink } from './findings.ts';
import { injectionPhrase, markersIn } from './markers.ts';
import { parseModule, scanModuleTree } from './scan-js.ts';
import { scanPython } from './scan-python.ts';
import { scanUnicode } from './unicode.ts';

/** The largest source the scanner reads (a skill is one file; 1 MiB is generous). */
export const MAX_SCAN_BYTES = 1024 * 1024;

export const scanPackage: ScanPackage = (source: string, kind: SkillKind): ScanResult => {
  const sink = findingSink();
  if (Buffer.byteLength(source, 'utf8') > MAX_SCAN_BYTES) {
    sink.add('scanner.too-large', 1, 'high', `larger than ${MAX_SCAN_BYTES} bytes: not scanned`);
    return sink.result();
  }
  const facts = emptyFacts();
  try {
    if (kind === 'py') scanPython(source, facts, sink);
    else scanJavaScript(source, facts, sink);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    sink.add('scanner.too-deep', 1, 'high', 'nests too deeply to analyse');
  }
  combineFacts(facts, sink);
  if (kind === 'py') reportPythonCapabilities(source, sink);
  return sink.result();
};

const capabilityMessage = (capability: string): string =>
  `declares the ${capability} capability: it may ask the gateway to run its ${capability} tool, behind the approval gate`;

/** Top-level `CAPABILITIES = [...]` lines of a skill.py naming a capability (a substring test). */
function reportPythonCapabilities(source: string, sink: FindingSink): void {
  let line = 1;
  for (const text of source.split('\n')) {
    if (text.startsWith('CAPABILITIES')) {
      for (const capability of SKILL_CAPABILITIES)
        if (text.includes(`'${capability}'`) || text.includes(`"${capability}"`))
          sink.add(`capability.${capability}`, line, 'medium', capabilityMessage(capability));
    }
    line++;
  }
}

function scanJavaScript(source: string, facts: ModuleFacts, sink: FindingSink): void {
  const parsed = parseModule(source, sink);
  if (parsed) {
    scanModuleTree(parsed.program, parsed.comments, facts, sink);
    // The module's own tools and their parameters, as the model will see them.
    for (const tool of extractJsTools(parsed.program, parsed.comments, source).tools) {
      facts.ownTools.push(tool.name);
      const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties;
      if (properties) facts.ownTools.push(...Object.keys(properties));
    }
    const literals: { raw: string; line: number }[] = [];
    const identifiers: { name: string; line: number }[] = [];
    const lineOf = (node: { loc?: { start: { line: number } } | null }) =>
      node.loc?.start.line ?? 1;
    simple(parsed.program, {
      Literal(node) {
        if (typeof node.value === 'string')
          literals.push({ raw: node.raw ?? '', line: lineOf(node) });
      },
      TemplateElement(node) {
        literals.push({ raw: node.value.raw, line: lineOf(node) });
      },
      Identifier(node) {
        identifiers.push({ name: node.name, line: lineOf(node) });
      },
      // acorn-walk's name for an identifier that binds (a parameter, a declared name).
      VariablePattern(node: { name: string; loc?: { start: { line: number } } | null }) {
        identifiers.push({ name: node.name, line: lineOf(node) });
      },
    } as SimpleVisitors<unknown>);
    scanUnicode({ source, literals, identifiers }, sink);
    // Not a risk by itself (every request passes the gate), but the installer should see it.
    const declared = readJsCapabilities(parsed.program);
    for (const capability of declared.capabilities)
      sink.add(`capability.${capability}`, declared.line, 'medium', capabilityMessage(capability));
    return;
  }
  scanUnicode({ source, literals: [], identifiers: [] }, sink);
  // Not a module we can read: still look for the text markers, line by line.
  let line = 1;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    const text = source.slice(start, end);
    for (const hit of markersIn(text)) facts.markers.push({ ...hit, line });
    const phrase = injectionPhrase(text);
    if (phrase) sink.add('injection.string', line, 'medium', `text tells the model: "${phrase}"`);
    start = end + 1;
    line++;
  }
}
