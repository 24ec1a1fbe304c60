import { missingSpeechTools } from '../testing/sox.ts';
import { createEnergyVad } from './energy-vad.ts';
import { runVadConformance } from './vad-conformance.ts';

const missing = missingSpeechTools();

runVadConformance('energy', () => createEnergyVad(), { skip: missing });
