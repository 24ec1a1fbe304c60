import { hasProgram } from '../testing/sox.ts';
import { createEnergyVad } from './energy-vad.ts';
import { runVadConformance } from './vad-conformance.ts';

const missing = !hasProgram('espeak-ng')
  ? 'espeak-ng is not installed'
  : !hasProgram('sox')
    ? 'sox is not installed'
    : undefined;

runVadConformance('energy', () => createEnergyVad(), { skip: missing });
