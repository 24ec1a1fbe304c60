/**
 * A command line taken apart with a real shell parser (mvdan/sh, bash grammar) into the simple
 * commands it runs, for allowlist matching. See `README.md` in this folder for the rules; in
 * short, every construct the analysis cannot see through makes the whole line opaque, and an
 * opaque line never matches the allowlist.
 */
import type { CommandAnalysis, SimpleCommand } from '../ports.ts';
import { at, OpaqueCommand } from './opaque.ts';
import {
  ShellParseError,
  shellParser,
  type ShBinaryCmd,
  type ShCallExpr,
  type ShCaseClause,
  type ShDblQuoted,
  type ShellParser,
  type ShFile,
  type ShIfClause,
  type ShNode,
  type ShRedirect,
  type ShSglQuoted,
  type ShStmt,
  type ShStmtList,
  type ShTimeClause,
  type ShWhileClause,
} from './shell-parser.ts';
import { analyseArgv, type UnwrapContext } from './unwrap.ts';
import { literalWord } from './words.ts';

/**
 * Longer lines are opaque. The parser's JavaScript build is slow to walk (about 30 µs a node), so
 * size is bounded; a long line is nearly always a heredoc writing a file, which is opaque anyway.
 */
export const MAX_LINE_LENGTH = 8_192;
/** Deeper `sh -c` nesting is opaque. */
export const MAX_NESTING = 4;
/** Deeper nesting of lists, pipelines and compound commands is opaque (the walk recurses). */
export const MAX_DEPTH = 100;
/** More statements in one script are opaque. */
export const MAX_STATEMENTS = 500;
/** More syntax nodes in one script are opaque. */
export const MAX_NODES = 4_000;

/** Node types the analysis understands; any other node anywhere in the line makes it opaque. */
const KNOWN_NODES: ReadonlySet<string> = new Set([
  'File',
  'Stmt',
  'Comment',
  'CallExpr',
  'Word',
  'Lit',
  'SglQuoted',
  'DblQuoted',
  'Redirect',
  'BinaryCmd',
  'Subshell',
  'Block',
  'IfClause',
  'WhileClause',
  'CaseClause',
  'CaseItem',
  'TimeClause',
]);

const NODE_REASONS: Readonly<Record<string, string>> = {
  ParamExp: 'parameter expansion',
  CmdSubst: 'command substitution',
  ProcSubst: 'process substitution',
  ArithmExp: 'arithmetic expansion',
  ArithmCmd: 'arithmetic command (( ))',
  ExtGlob: 'extended glob',
  BraceExp: 'brace expansion',
  Assign: 'variable assignment',
  ArrayExpr: 'array assignment',
  FuncDecl: 'function declaration',
  ForClause: 'for/select loop (assigns a variable)',
  TestClause: '[[ ]] test (evaluates arithmetic)',
  DeclClause: 'declaration built-in',
  LetClause: 'let',
  CoprocClause: 'coprocess',
};

/** Redirections may write only here. */
const WRITABLE_TARGETS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

const FILE_DESCRIPTOR = /^(?:[0-9]+|-)$/;

// C0 controls other than tab and newline, and DEL: NUL bytes and carriage returns hide text.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** The statements directly inside a command, for the shape check. */
function childStatements(parser: ShellParser, cmd: ShNode): ShStmt[] {
  switch (parser.nodeType(cmd)) {
    case 'BinaryCmd': {
      const binary = cmd as ShBinaryCmd;
      return [binary.X, binary.Y];
    }
    case 'Subshell':
    case 'Block':
      return (cmd as ShStmtList).Stmts;
    case 'WhileClause': {
      const loop = cmd as ShWhileClause;
      return [...loop.Cond, ...loop.Do];
    }
    case 'CaseClause':
      return (cmd as ShCaseClause).Items.flatMap((item) => item.Stmts);
    case 'TimeClause': {
      const timed = (cmd as ShTimeClause).Stmt;
      return timed === null ? [] : [timed];
    }
    default:
      // Other commands hold no statements the walk descends into: unknown ones are refused
      // without looking inside.
      return [];
  }
}

/**
 * Bounds nesting and statement count without recursion, before anything recursive (the
 * library's walk, this analysis) runs over the tree: a pipeline of a thousand stages nests a
 * thousand deep and would overflow the stack.
 */
function checkShape(parser: ShellParser, file: ShFile): void {
  const stack: Array<{ stmt: ShStmt; depth: number }> = file.Stmts.map((stmt) => ({
    stmt,
    depth: 1,
  }));
  let statements = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    statements++;
    if (statements > MAX_STATEMENTS) throw new OpaqueCommand('too many commands');
    if (entry.depth > MAX_DEPTH) throw new OpaqueCommand('commands nested too deeply');
    const cmd = entry.stmt.Cmd;
    if (cmd === null) continue;
    if (parser.nodeType(cmd) === 'IfClause') {
      // Each elif/else is one level deeper in the tree.
      let depth = entry.depth + 1;
      for (let clause: ShIfClause | null = cmd as ShIfClause; clause; clause = clause.Else) {
        if (depth > MAX_DEPTH) throw new OpaqueCommand('commands nested too deeply');
        for (const stmt of [...clause.Cond, ...clause.Then]) stack.push({ stmt, depth });
        depth++;
      }
      continue;
    }
    for (const stmt of childStatements(parser, cmd)) {
      stack.push({ stmt, depth: entry.depth + 1 });
    }
  }
}

function unknownNodes(parser: ShellParser, file: ShFile): string | null {
  const found: { reason: string | null } = { reason: null };
  let nodes = 0;
  parser.walk(file, (node) => {
    if (found.reason !== null) return false;
    nodes++;
    if (nodes > MAX_NODES) {
      found.reason = 'command line too complex';
      return false;
    }
    const type = parser.nodeType(node);
    if (!KNOWN_NODES.has(type)) {
      found.reason = `${NODE_REASONS[type] ?? `unsupported syntax ${type}`} at ${at(node)}`;
      return false;
    }
    if (type === 'SglQuoted' && (node as ShSglQuoted).Dollar) {
      found.reason = `$'…' quoting at ${at(node)}`;
      return false;
    }
    if (type === 'DblQuoted' && (node as ShDblQuoted).Dollar) {
      found.reason = `$"…" quoting at ${at(node)}`;
      return false;
    }
    return true;
  });
  return found.reason;
}

class Walker {
  private readonly parser: ShellParser;
  private readonly ctx: UnwrapContext;

  constructor(parser: ShellParser, ctx: UnwrapContext) {
    this.parser = parser;
    this.ctx = ctx;
  }

  statements(stmts: readonly ShStmt[]): void {
    for (const stmt of stmts) this.statement(stmt);
  }

  private statement(stmt: ShStmt): void {
    if (stmt.Coprocess) throw new OpaqueCommand(`coprocess at ${at(stmt)}`);
    for (const redirect of stmt.Redirs) this.redirect(redirect);
    const cmd = stmt.Cmd;
    if (cmd === null) return;
    const type = this.parser.nodeType(cmd);
    switch (type) {
      case 'CallExpr':
        this.call(cmd as ShCallExpr);
        return;
      case 'BinaryCmd': {
        const binary = cmd as ShBinaryCmd;
        this.statement(binary.X);
        this.statement(binary.Y);
        return;
      }
      case 'Subshell':
      case 'Block':
        this.statements((cmd as ShStmtList).Stmts);
        return;
      case 'IfClause':
        for (let clause: ShIfClause | null = cmd as ShIfClause; clause; clause = clause.Else) {
          this.statements(clause.Cond);
          this.statements(clause.Then);
        }
        return;
      case 'WhileClause': {
        const loop = cmd as ShWhileClause;
        this.statements(loop.Cond);
        this.statements(loop.Do);
        return;
      }
      case 'CaseClause': {
        const clause = cmd as ShCaseClause;
        literalWord(clause.Word, this.parser);
        for (const item of clause.Items) {
          for (const pattern of item.Patterns) {
            literalWord(pattern, this.parser, { allowGlob: true });
          }
          this.statements(item.Stmts);
        }
        return;
      }
      case 'TimeClause': {
        const timed = (cmd as ShTimeClause).Stmt;
        if (timed !== null) this.statement(timed);
        return;
      }
      default:
        throw new OpaqueCommand(
          `${NODE_REASONS[type] ?? `unsupported syntax ${type}`} at ${at(cmd)}`,
        );
    }
  }

  private call(call: ShCallExpr): void {
    const assign = call.Assigns[0];
    // `FOO=1 ls` injects environment (LD_PRELOAD, PATH); a bare `PATH=/tmp` changes what later
    // commands resolve to.
    if (assign !== undefined) throw new OpaqueCommand(`variable assignment at ${at(assign)}`);
    const argv = call.Args.map((word) => literalWord(word, this.parser));
    if (argv.length > 0) analyseArgv(argv, this.ctx);
  }

  private redirect(redirect: ShRedirect): void {
    const where = at(redirect);
    if (redirect.N !== null && !/^[0-9]+$/.test(redirect.N.Value)) {
      throw new OpaqueCommand(`named file descriptor ${redirect.N.Value} at ${where}`);
    }
    const op = this.parser.redirectOp(redirect);
    if (op === null) throw new OpaqueCommand(`unknown redirection at ${where}`);
    if (redirect.Word === null) throw new OpaqueCommand(`redirection without a target at ${where}`);
    const target = literalWord(redirect.Word, this.parser);
    switch (op) {
      case '<':
        if (/^\/dev\/(?:tcp|udp)\//.test(target)) {
          throw new OpaqueCommand(`network redirection ${target} at ${where}`);
        }
        return;
      case '<<':
      case '<<-':
      case '<<<':
        // The body's expansions, if any, were refused with the other unknown nodes.
        return;
      case '<&':
        if (!FILE_DESCRIPTOR.test(target)) {
          throw new OpaqueCommand(`redirection <&${target} at ${where}`);
        }
        return;
      case '>&':
        if (FILE_DESCRIPTOR.test(target)) return;
        break;
      default:
        break;
    }
    // A write (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&file`) is a side effect no program
    // allowlist entry covers: `echo x > ~/.bashrc` must not pass as `echo`.
    if (!WRITABLE_TARGETS.has(target)) {
      throw new OpaqueCommand(`redirection ${op} writes to ${target} at ${where}`);
    }
  }
}

function analyseScript(source: string, depth: number, commands: SimpleCommand[]): void {
  if (depth > MAX_NESTING) throw new OpaqueCommand('shell -c nested too deeply');
  if (source.length > MAX_LINE_LENGTH) throw new OpaqueCommand('command line too long');
  const control = CONTROL_CHARACTER.exec(source);
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase();
    throw new OpaqueCommand(`control character U+${code}`);
  }
  const parser = shellParser();
  const file = parser.parse(source);
  checkShape(parser, file);
  const unknown = unknownNodes(parser, file);
  if (unknown !== null) throw new OpaqueCommand(unknown);
  const ctx: UnwrapContext = {
    push: (command) => commands.push(command),
    analyseScript: (script) => analyseScript(script, depth + 1, commands),
  };
  new Walker(parser, ctx).statements(file.Stmts);
}

/** Parsing is synchronous: the parser is loaded once, on the first call. */
export function analyseCommand(line: string): CommandAnalysis {
  const commands: SimpleCommand[] = [];
  try {
    analyseScript(line, 0, commands);
    return { commands, opaque: null };
  } catch (error) {
    if (error instanceof OpaqueCommand) return { commands: [], opaque: error.message };
    if (error instanceof ShellParseError) {
      return { commands: [], opaque: `parse error: ${error.message}` };
    }
    // Fail closed: an analysis that broke is not an analysis.
    const message = error instanceof Error ? error.message : String(error);
    return { commands: [], opaque: `analysis failed: ${message}` };
  }
}
