// Moved to gateway/test-gateway.ts; this re-export stays until the approvals and tools tests
// import the new path (their folders are being rewritten separately).
export * from './gateway/test-gateway.ts';
