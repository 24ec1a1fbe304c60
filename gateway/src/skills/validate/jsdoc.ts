/**
 * A JSDoc block as a tool description and a parameters JSON Schema: the text before the first
 * tag is the description; each `@param {type} name description` is a property, required unless
 * written `[name]`, `[name=default]` or `{type=}`. Dotted names (`args.city`) describe a
 * property of another parameter and are left out, as the skill host does. The host passes
 * the properties positionally in this order.
 */
export interface JsDoc {
  description: string;
  parameters: { type: 'object'; properties: Record<string, unknown>; required: string[] };
}

const jsonTypes: Record<string, string> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
  null: 'null',
};

/** A JSDoc type expression as a JSON Schema; types it cannot map constrain nothing. */
export function schemaOfJsDocType(text: string): Record<string, unknown> {
  const type = text
    .trim()
    .replace(/=$/, '')
    .replace(/^\((.*)\)$/, '$1')
    .trim();
  const alternatives = type.split('|').map((part) => part.trim());
  if (alternatives.length > 1) {
    const literals = alternatives.map((part) => /^(['"])(.*)\1$/.exec(part)?.[2]);
    if (literals.every((value) => value !== undefined)) return { type: 'string', enum: literals };
    const schemas = alternatives.map(schemaOfJsDocType);
    const simple = schemas.map((schema) =>
      Object.keys(schema).length === 1 ? schema.type : undefined,
    );
    if (simple.every((value) => typeof value === 'string')) return { type: simple };
    return {};
  }
  const lower = type.toLowerCase();
  if (lower.endsWith('[]')) return { type: 'array', items: schemaOfJsDocType(type.slice(0, -2)) };
  const generic = /^array\.?<(.+)>$/i.exec(type);
  if (generic?.[1]) return { type: 'array', items: schemaOfJsDocType(generic[1]) };
  if (/^object\.?</i.test(type) || /^record</i.test(type)) return { type: 'object' };
  const mapped = jsonTypes[lower];
  return mapped ? { type: mapped } : {};
}

const paramTag =
  /^@param\s+(?:\{([^}]*)\}\s*)?(\[)?\s*([A-Za-z_$][\w$.]*)\s*(?:=[^\]]*)?\]?\s*(?:-\s*)?(.*)$/;

/** Parses the inside of a `/** … *\/` comment (acorn's comment value, without the slashes). */
export function parseJsDoc(body: string): JsDoc {
  const lines = body
    .replace(/^\*/, '')
    .replace(/[ \t]@(?=(?:param|returns?|example|throws)\b)/g, '\n@') // `/** Hi. @param {string} who */`
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd());
  const description: string[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let inTags = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('@')) inTags = true;
    const param = paramTag.exec(trimmed);
    if (param) {
      const [, type = '', optional, name = '', text = ''] = param;
      if (name.includes('.')) continue;
      properties[name] = { ...schemaOfJsDocType(type), ...(text ? { description: text } : {}) };
      if (!optional && !type.trim().endsWith('=')) required.push(name);
    } else if (!inTags && trimmed) {
      description.push(trimmed);
    }
  }
  return {
    description: description.join(' '),
    parameters: { type: 'object', properties, required },
  };
}
