export interface CanvasData {
  type: string;
  labels: string[];
  values: number[];
}

function fromObject(value: unknown): CanvasData | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const labels = record.labels;
  const values = record.values ?? record.data;
  if (
    !Array.isArray(labels) ||
    !Array.isArray(values) ||
    labels.length === 0 ||
    labels.length !== values.length
  ) {
    return undefined;
  }
  if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  return {
    type: typeof record.type === 'string' && record.type !== '' ? record.type : 'bar',
    labels: labels.map(String),
    values: values as number[],
  };
}

function fromJsonBlocks(reply: string): CanvasData | undefined {
  // Written so that no input makes them backtrack over the reply more than once: the fence's
  // opening line allows only non-newline blanks before its newline, and a bare object is any
  // brace pair without nested braces, checked for "labels" afterwards.
  const candidates = [...reply.matchAll(/```(?:json)?[^\S\n]*\n([\s\S]*?)```/g)].map(
    (m) => m[1] ?? '',
  );
  const bare = [...reply.matchAll(/\{[^{}]*\}/g)].find((m) => m[0].includes('"labels"'));
  if (bare) candidates.push(bare[0]);
  for (const text of candidates) {
    try {
      const found = fromObject(JSON.parse(text));
      if (found) return found;
    } catch {
      // not JSON
    }
  }
  return undefined;
}

// A cell is trimmed, so blanks before `%` follow either the digits (already in `[\d,\s]*`) or
// the decimals; a separate `\s*` after `[\d,\s]*` made `1<spaces>x` take quadratic time.
const NUMBER = /^[-+]?[$€£]?\s*\d[\d,\s]*(?:\.\d+\s*)?%?$/;

function fromMarkdownTable(reply: string): CanvasData | undefined {
  const rows = reply
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && line.endsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  const body = rows.filter((cells) => !cells.every((c) => /^:?-{2,}:?$/.test(c)));
  if (body.length < 3) return undefined;
  const [, ...data] = body;
  if (!data.every((cells) => cells.length === 2 && NUMBER.test(cells[1] ?? ''))) return undefined;
  return {
    type: 'bar',
    labels: data.map((cells) => cells[0] ?? ''),
    values: data.map((cells) => Number((cells[1] ?? '').replace(/[^\d.+-]/g, ''))),
  };
}

/**
 * Chart data in a reply, when the model produced some: a JSON object `{type?, labels, values}`
 * (fenced or bare), or a two-column Markdown table of labels and numbers. Undefined otherwise.
 */
export function extractCanvasData(reply: string): CanvasData | undefined {
  return fromJsonBlocks(reply) ?? fromMarkdownTable(reply);
}

/** Appended to the system prompt of /chat/canvas requests. */
export const CANVAS_HINT =
  'When the answer contains numbers that suit a chart, also include a fenced JSON block ' +
  '{"type": "bar" | "line" | "pie", "labels": [...], "values": [...]} with the data.';
