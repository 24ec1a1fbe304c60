/**
 * The two calls of Ollama's API that getting a model takes: `GET /api/tags` (what the runtime
 * has) and `POST /api/pull` (fetch one, with NDJSON progress lines).
 * https://github.com/ollama/ollama/blob/main/docs/api.md
 */

export interface PullProgress {
  status: string;
  /** Bytes of the layer being downloaded, when the line is about one. */
  completed?: number;
  total?: number;
}

export interface OllamaCall {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal;
}

const url = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, '')}${path}`;

/** `llama3.2` and `llama3.2:latest` name the same model. */
export function sameModel(listed: string, wanted: string): boolean {
  const full = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return full(listed) === full(wanted);
}

/** The models the runtime has; throws when it does not answer. */
export async function listOllamaModels(call: OllamaCall): Promise<string[]> {
  const response = await call.fetch(url(call.baseUrl, '/api/tags'), { signal: call.signal });
  if (!response.ok) throw new Error(`GET /api/tags answered ${response.status}`);
  const body = (await response.json()) as { models?: { name?: unknown }[] };
  return (body.models ?? []).flatMap((entry) =>
    typeof entry.name === 'string' ? [entry.name] : [],
  );
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let rest = '';
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    rest += text;
    let newline = rest.indexOf('\n');
    while (newline !== -1) {
      const line = rest.slice(0, newline).trim();
      rest = rest.slice(newline + 1);
      if (line !== '') yield line;
      newline = rest.indexOf('\n');
    }
  }
  if (rest.trim() !== '') yield rest.trim();
}

/**
 * Pulls `model`, calling `onProgress` for every progress line. Resolves on Ollama's `success`;
 * throws with Ollama's own message on an `error` line, a non-2xx answer or a stream that ends
 * without `success`.
 */
export async function pullOllamaModel(
  call: OllamaCall & { model: string; onProgress: (progress: PullProgress) => void },
): Promise<void> {
  const response = await call.fetch(url(call.baseUrl, '/api/pull'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: call.model, stream: true }),
    signal: call.signal,
  });
  if (!response.ok || response.body === null) {
    const detail = await response.text().catch(() => '');
    throw new Error(`POST /api/pull answered ${response.status} ${detail}`.trim());
  }
  for await (const line of lines(response.body)) {
    let parsed: { status?: unknown; error?: unknown; completed?: unknown; total?: unknown };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      throw new Error(`POST /api/pull sent a line that is not JSON: ${line.slice(0, 80)}`);
    }
    if (typeof parsed.error === 'string') throw new Error(parsed.error);
    if (typeof parsed.status !== 'string') continue;
    call.onProgress({
      status: parsed.status,
      ...(typeof parsed.completed === 'number' ? { completed: parsed.completed } : {}),
      ...(typeof parsed.total === 'number' ? { total: parsed.total } : {}),
    });
    if (parsed.status === 'success') return;
  }
  throw new Error('POST /api/pull ended before "success"');
}
