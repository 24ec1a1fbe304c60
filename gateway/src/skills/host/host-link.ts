/**
 * The pipe between the gateway's side of a skill host (skill-process.ts) and one running host
 * process: JSON lines in, stdout bytes and stderr text out, and how it ended. A local child
 * (child-link.ts) and a host in the sandbox-executor sidecar (sidecar-link.ts) are both links;
 * the protocol on top is the same.
 */

/** What a link reports; after `exit` or `failed` it reports nothing more. */
export interface HostLinkEvents {
  /** Bytes the host wrote on stdout (lines end with `\n`). */
  stdout(chunk: Buffer): void;
  stderr(text: string): void;
  /** The host ended: `exit code 3`, `signal SIGKILL`, … */
  exit(how: string): void;
  /** The host could not be started or reached (the message says why). */
  failed(message: string): void;
}

export interface HostLink {
  /** Writes one line (ending in `\n`) to the host's stdin; dropped once it has ended. */
  send(line: string): void;
  /** Bytes of lines sent that the host has not taken yet (queued here, unread by it). */
  unread(): number;
  /** Stops the host at once. */
  kill(): void;
  /** Settles when the host is gone (after exit, failure or kill). */
  readonly exited: Promise<void>;
  /** The host's process id on this machine (a local child), watched for its resources. */
  readonly pid?: number;
}

/** Starts one host process and returns the link to it. */
export type ConnectHost = (events: HostLinkEvents) => HostLink;
