// Moved to fakes/tcp-proxy.ts; this re-export stays until the approvals and tools tests import
// the new path (their folders are being rewritten separately).
export * from './fakes/tcp-proxy.ts';
