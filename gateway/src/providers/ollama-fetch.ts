/**
 * Ollama reports errors as `{"error": "<message>"}`: as the body of a failed response, or as an
 * NDJSON line once a stream has started (the model crashed, ran out of memory ...).
 * ollama-ai-provider-v2 parses OpenAI's `{"error": {"message"}}` and drops lines it cannot parse
 * with a console warning, so a failed local call would surface as a bare status text, or as an
 * empty stream that finishes normally. This fetch rewrites failed bodies into the shape the
 * provider parses and turns an error line into a stream error.
 */
type Fetch = typeof globalThis.fetch;

function ollamaError(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (
      typeof value === 'object' &&
      value !== null &&
      'error' in value &&
      typeof value.error === 'string'
    ) {
      return value.error;
    }
  } catch {
    // Not JSON: leave the body as it is.
  }
  return undefined;
}

/**
 * Passes NDJSON lines through until an `{"error": …}` line, which fails the stream. Erroring a
 * stream discards what is still queued, so the lines before the error are given a turn of the
 * event loop to be read first.
 */
function failOnErrorLine(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  const pass = async (
    lines: string[],
    controller: TransformStreamDefaultController<Uint8Array>,
  ) => {
    for (const line of lines) {
      if (line.trim() === '') continue;
      const message = ollamaError(line);
      if (message === undefined) {
        controller.enqueue(encoder.encode(`${line}\n`));
        continue;
      }
      await new Promise((resolve) => setImmediate(resolve));
      controller.error(new Error(message));
      return;
    }
  };
  return new TransformStream({
    async transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      await pass(lines, controller);
    },
    async flush(controller) {
      await pass([buffer + decoder.decode()], controller);
    },
  });
}

/**
 * The thinking ladder sends `think: true` for any level above off, but models that cannot think
 * answer 400 "… does not support thinking". Such a request is sent once more without `think`,
 * so `/think high` on a plain local model still gets an answer.
 */
async function withoutUnsupportedThink(
  fetch: Fetch,
  input: Parameters<Fetch>[0],
  init: Parameters<Fetch>[1],
): Promise<Response> {
  const response = await fetch(input, init);
  if (
    response.status !== 400 ||
    typeof init?.body !== 'string' ||
    !init.body.includes('"think":true')
  )
    return response;
  const text = await response.text();
  if (!/does not support thinking/i.test(text)) return new Response(text, response);
  const body = JSON.parse(init.body) as Record<string, unknown>;
  delete body.think;
  return fetch(input, { ...init, body: JSON.stringify(body) });
}

export function ollamaFetch(fetch: Fetch): Fetch {
  return async (input, init) => {
    const response = await withoutUnsupportedThink(fetch, input, init);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    const meta = { status: response.status, statusText: response.statusText, headers };
    if (!response.ok) {
      const text = await response.text();
      const message = ollamaError(text);
      return new Response(
        message === undefined ? text : JSON.stringify({ error: { message } }),
        meta,
      );
    }
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('ndjson'))
      return response;
    return new Response(response.body.pipeThrough(failOnErrorLine()), meta);
  };
}
