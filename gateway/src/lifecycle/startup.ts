import type { Logger } from 'pino';

export interface StartupPhase {
  name: string;
  run: () => Promise<void>;
}

/**
 * Runs the start-up phases in order and remembers where it is: `init_phase` in /status and
 * the `phase` check of /ready read it. /health answers throughout.
 */
export function createStartup(logger: Logger) {
  let phase = 'starting';
  let done = false;
  let failure: string | null = null;

  return {
    get phase(): string {
      return phase;
    },
    get done(): boolean {
      return done;
    },
    get failure(): string | null {
      return failure;
    },
    async run(phases: readonly StartupPhase[]): Promise<void> {
      const started = performance.now();
      for (const step of phases) {
        phase = step.name;
        const at = performance.now();
        try {
          await step.run();
        } catch (error) {
          failure = `${step.name}: ${error instanceof Error ? error.message : String(error)}`;
          phase = 'failed';
          throw error;
        }
        logger.debug(
          { phase: step.name, ms: Math.round(performance.now() - at) },
          'start-up phase done',
        );
      }
      phase = 'ready';
      done = true;
      logger.info({ ms: Math.round(performance.now() - started) }, 'gateway ready');
    },
  };
}

export type Startup = ReturnType<typeof createStartup>;
