/**
 * The migrate area's public face: importing a predecessor's state directory
 * (neuralcleave/index.ts is the same set, the CLI's entry point).
 */
export * from './neuralcleave/index.ts';
