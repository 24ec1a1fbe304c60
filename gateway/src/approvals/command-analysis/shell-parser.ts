/**
 * A typed facade over `mvdan-sh`, the JavaScript build of mvdan/sh (the Go shell parser behind
 * shfmt). The package ships no type declarations, so the few node shapes the analysis reads are
 * declared here; every node is told apart with the library's own `NodeType`, never by guessing
 * from its fields.
 *
 * Loading is lazy and happens once, on the first parse (about 80 ms). The GopherJS runtime
 * assigns `globalThis.require` while it starts; the previous value is put back afterwards so the
 * gateway's global scope is left as it was. Parsing is synchronous and never touches the file
 * system or the network.
 */
import { createRequire } from 'node:module';

export interface ShPos {
  Line(): number;
  Col(): number;
  Offset(): number;
}

export interface ShNode {
  Pos(): ShPos;
  End(): ShPos;
}

export interface ShFile extends ShNode {
  Stmts: ShStmt[];
}

export interface ShStmt extends ShNode {
  Cmd: ShNode | null;
  Redirs: ShRedirect[];
  Negated: boolean;
  Background: boolean;
  Coprocess: boolean;
}

export interface ShWord extends ShNode {
  Parts: ShNode[];
}

export interface ShLit extends ShNode {
  Value: string;
}

export interface ShSglQuoted extends ShNode {
  Value: string;
  /** `$'…'` (ANSI-C quoting). */
  Dollar: boolean;
}

export interface ShDblQuoted extends ShNode {
  Parts: ShNode[];
  /** `$"…"` (locale translation). */
  Dollar: boolean;
}

export interface ShRedirect extends ShNode {
  Op: number;
  N: ShLit | null;
  Word: ShWord | null;
  Hdoc: ShWord | null;
}

export interface ShCallExpr extends ShNode {
  Assigns: ShNode[];
  Args: ShWord[];
}

export interface ShBinaryCmd extends ShNode {
  X: ShStmt;
  Y: ShStmt;
}

/** `Subshell` and `Block` both carry a statement list. */
export interface ShStmtList extends ShNode {
  Stmts: ShStmt[];
}

export interface ShIfClause extends ShNode {
  Cond: ShStmt[];
  Then: ShStmt[];
  /** The `elif`/`else` branch; a plain `else` has an empty `Cond`. */
  Else: ShIfClause | null;
}

export interface ShWhileClause extends ShNode {
  Cond: ShStmt[];
  Do: ShStmt[];
}

export interface ShCaseItem extends ShNode {
  Patterns: ShWord[];
  Stmts: ShStmt[];
}

export interface ShCaseClause extends ShNode {
  Word: ShWord;
  Items: ShCaseItem[];
}

export interface ShTimeClause extends ShNode {
  Stmt: ShStmt | null;
}

/** Redirection operators by their source spelling. */
export type RedirectOp =
  '<' | '>' | '>>' | '<>' | '>|' | '&>' | '&>>' | '<&' | '>&' | '<<' | '<<-' | '<<<';

export interface ShellParser {
  /** Parses bash source; throws a {@link ShellParseError} on a syntax error. */
  parse(source: string): ShFile;
  /** The node's Go type name without the package: `CallExpr`, `Lit`, `CmdSubst`, … */
  nodeType(node: ShNode): string;
  /** Every node under `node`, depth first; `visit` returns false to skip a node's children. */
  walk(node: ShNode, visit: (node: ShNode) => boolean): void;
  /** The word with bash brace expansions (`{a,b}`, `{1..3}`) split out as `BraceExp` parts. */
  splitBraces(word: ShWord): ShWord;
  /** A redirection's operator, or null for one this facade does not know. */
  redirectOp(redirect: ShRedirect): RedirectOp | null;
}

export class ShellParseError extends Error {
  override name = 'ShellParseError';
}

interface GoParser {
  Parse(source: string, name: string): ShFile;
}

interface GoSyntax {
  NewParser(): GoParser;
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  SplitBraces(word: ShWord): ShWord;
}

function isGoSyntax(value: unknown): value is GoSyntax {
  if (typeof value !== 'object' || value === null) return false;
  return ['NewParser', 'NodeType', 'Walk', 'SplitBraces'].every(
    (name) => typeof Reflect.get(value, name) === 'function',
  );
}

function loadSyntax(): GoSyntax {
  const hadRequire = Object.prototype.hasOwnProperty.call(globalThis, 'require');
  const previousRequire: unknown = Reflect.get(globalThis, 'require');
  try {
    const load = createRequire(import.meta.url);
    const module: unknown = load('mvdan-sh');
    const syntax: unknown =
      typeof module === 'object' && module !== null ? Reflect.get(module, 'syntax') : undefined;
    if (!isGoSyntax(syntax)) throw new Error('mvdan-sh does not export the expected syntax API');
    return syntax;
  } finally {
    if (hadRequire) Reflect.set(globalThis, 'require', previousRequire);
    else Reflect.deleteProperty(globalThis, 'require');
  }
}

function goErrorText(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const method: unknown = Reflect.get(error, 'Error');
    if (typeof method === 'function') {
      const text: unknown = method.call(error);
      if (typeof text === 'string') return text;
    }
    if (error instanceof Error) return error.message;
  }
  return String(error);
}

const REDIRECT_PROBES: ReadonlyArray<[RedirectOp, string]> = [
  ['<', 'a <b'],
  ['>', 'a >b'],
  ['>>', 'a >>b'],
  ['<>', 'a <>b'],
  ['>|', 'a >|b'],
  ['&>', 'a &>b'],
  ['&>>', 'a &>>b'],
  ['<&', 'a <&b'],
  ['>&', 'a >&b'],
  ['<<', 'a <<E\nx\nE\n'],
  ['<<-', 'a <<-E\nx\nE\n'],
  ['<<<', 'a <<<b'],
];

function createParser(): ShellParser {
  const syntax = loadSyntax();
  const parser = syntax.NewParser();
  const parse = (source: string): ShFile => {
    try {
      return parser.Parse(source, '');
    } catch (error) {
      throw new ShellParseError(goErrorText(error));
    }
  };
  // The JavaScript build exposes operators as Go's numeric token values, which differ between
  // releases; learn them from the parser itself instead of hard-coding them.
  const redirectOps = new Map<number, RedirectOp>();
  for (const [op, probe] of REDIRECT_PROBES) {
    const redirect = parse(probe).Stmts[0]?.Redirs[0];
    if (redirect === undefined) throw new Error(`mvdan-sh parsed no redirection in ${probe}`);
    redirectOps.set(redirect.Op, op);
  }
  if (redirectOps.size !== REDIRECT_PROBES.length) {
    throw new Error('mvdan-sh gave two redirection operators the same code');
  }
  return {
    parse,
    nodeType: (node) => syntax.NodeType(node),
    walk: (node, visit) => {
      syntax.Walk(node, (child) => (child === null ? true : visit(child)));
    },
    splitBraces: (word) => syntax.SplitBraces(word),
    redirectOp: (redirect) => redirectOps.get(redirect.Op) ?? null,
  };
}

let shared: ShellParser | undefined;

/** The process-wide parser, created on first use. */
export function shellParser(): ShellParser {
  shared ??= createParser();
  return shared;
}
