/** Where commands write: stdout for results, stderr for errors. Tests pass a capturing one. */
export interface Output {
  /** Writes `text` to stdout, adding a final newline when it has none. */
  out(text: string): void;
  /** Writes `text` to stderr, adding a final newline when it has none. */
  err(text: string): void;
  /** Writes `text` to stdout as is (streamed chat output). */
  write(text: string): void;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The real output: the process's stdout and stderr. */
export function processOutput(): Output {
  return {
    out: (text) => void process.stdout.write(withNewline(text)),
    err: (text) => void process.stderr.write(withNewline(text)),
    write: (text) => void process.stdout.write(text),
  };
}

/** An output that keeps what was written (tests, and callers that want the text). */
export function bufferedOutput(): Output & { stdout(): string; stderr(): string } {
  let stdout = '';
  let stderr = '';
  return {
    out: (text) => void (stdout += withNewline(text)),
    err: (text) => void (stderr += withNewline(text)),
    write: (text) => void (stdout += text),
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
