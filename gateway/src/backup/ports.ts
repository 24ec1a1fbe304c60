/**
 * The backup area's public face: creating, listing, verifying and restoring archives of the
 * state directory (index.ts is the same set, the CLI's entry point).
 */
export * from './index.ts';
