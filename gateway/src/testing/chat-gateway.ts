// Moved to gateway/chat-gateway.ts; this re-export stays until the approvals and tools tests
// import the new path (their folders are being rewritten separately).
export * from './gateway/chat-gateway.ts';
