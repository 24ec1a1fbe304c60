/**
 * Test helper: a skill that goes over each resource limit on request (resource-limits.test.ts,
 * sidecar-limits.test.ts), and the check that a call failed as a skill's tool error.
 */
import { expect } from 'vitest';
import { SkillCallError } from '../errors.ts';

/** The hostile skill's source; `chunkDelayMs` paces hoardBuffers' 16 MB chunks. */
export const hostileLimitsSkill = (chunkDelayMs = 20): string => `
import { openSync, writeFileSync } from 'node:fs';

const kept = [];

/** Allocates 1 GB of Buffers, a chunk at a time, and holds them. */
export async function hoardBuffers() {
  for (let index = 0; index < 64; index += 1) {
    try {
      kept.push(Buffer.alloc(16 * 1024 * 1024, 1));
    } catch {
      // the address-space limit refused this chunk: keep what there is
    }
    await new Promise((resolve) => setTimeout(resolve, ${chunkDelayMs}));
  }
  return kept.length;
}

/** Returns at once and leaves a loop burning a core. */
export function spinAfterReturn() {
  setTimeout(() => {
    for (;;) {}
  }, 50);
  return 'returned';
}

/** Burns CPU for a while within one call. */
export function burn() {
  const until = Date.now() + 8000;
  let count = 0;
  while (Date.now() < until) count += 1;
  return count;
}

/** Opens files until it cannot, and keeps them open. */
export function openFiles() {
  const fds = [];
  try {
    for (let index = 0; index < 10000; index += 1) fds.push(openSync('.', 'r'));
    return 'opened ' + fds.length;
  } catch (error) {
    return error.code + ' after ' + fds.length;
  }
}

/** Writes one 8 MB file. */
export function hugeFile() {
  writeFileSync('huge.bin', Buffer.alloc(8 * 1024 * 1024, 1));
  return 'written';
}

/** Writes 1 MB files, one per call. */
let written = 0;
export function fillData() {
  written += 1;
  writeFileSync('part-' + written + '.bin', Buffer.alloc(1024 * 1024, 1));
  return written;
}

/** Tries to start processes. */
export async function processes() {
  const { spawn } = await import('node:child_process');
  let started = 0;
  const errors = new Set();
  for (let index = 0; index < 50; index += 1) {
    try {
      spawn('/bin/true');
      started += 1;
    } catch (error) {
      errors.add(error.code);
    }
  }
  return { started, errors: [...errors] };
}

export function ping() {
  return 'pong';
}
`;

/** The call failed with a SkillCallError (returned for its reason), never anything else. */
export async function failure(promise: Promise<unknown>): Promise<SkillCallError> {
  const error = await promise.then(
    (value) => new Error(`expected a failure, got ${JSON.stringify(value)}`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SkillCallError);
  return error as SkillCallError;
}
