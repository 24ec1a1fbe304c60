/** The hub's download adapter is the gateway's pinned outbound fetch (kernel: http/outbound). */
export { createPinnedFetch, type PinnedFetch } from '../http/outbound/pinned-fetch.ts';
