// Moved to ../fakes/fake-llm/script.ts; this re-export stays until the approvals and tools tests
// import the new path (their folders are being rewritten separately).
export * from '../fakes/fake-llm/script.ts';
