import type { ShNode } from './shell-parser.ts';

/** Thrown inside the analysis when a line cannot be analysed safely; the message is the reason. */
export class OpaqueCommand extends Error {
  override name = 'OpaqueCommand';
}

/** `line:col` of a node, for reasons. */
export function at(node: ShNode): string {
  const pos = node.Pos();
  return `${pos.Line()}:${pos.Col()}`;
}
