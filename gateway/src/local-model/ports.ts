/** The local-model area's public face: the area (pulling models into the local runtime). */
export { localModelArea, type LocalModelAreaDeps } from './area.ts';
