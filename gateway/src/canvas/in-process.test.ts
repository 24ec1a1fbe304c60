import { runCanvasStoreConformance, CONFORMANCE_LIMITS } from './conformance.ts';
import { createInProcessCanvasStore } from './in-process.ts';

runCanvasStoreConformance('in-process', () =>
  Promise.resolve(createInProcessCanvasStore(CONFORMANCE_LIMITS)),
);
