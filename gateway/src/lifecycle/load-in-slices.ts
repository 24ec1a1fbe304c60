/**
 * Loads modules one group at a time, letting the event loop run between two groups. An
 * `import()` of a large module graph reads, links and runs every module of it in one go, during
 * which no connection is accepted and no request answered; loading the same graph in slices
 * (the heaviest dependencies first, then the gateway's areas one by one) keeps the early
 * listener answering /health within the time of one slice. What is loaded is unchanged: each
 * slice only fills the module cache a later import finds.
 */
export async function loadInSlices(loaders: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const load of loaders) {
    await load();
    // Three turns of the loop: a setImmediate resumes in the check phase, after the poll phase
    // of its turn, so two poll phases pass between two slices: in the first, a connection
    // waiting in the backlog is accepted; in the second, its request is read and answered.
    for (let i = 0; i < 3; i += 1) await turn();
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
