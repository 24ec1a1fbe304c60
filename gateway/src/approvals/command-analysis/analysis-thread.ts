/**
 * The worker thread's side of `command-analyser.ts`: analyses each command line it is sent and
 * posts the result back with the request's id. Runs only inside a worker.
 */
import { parentPort } from 'node:worker_threads';
import { analyseCommand } from './analyse-command.ts';

parentPort?.on('message', (message: { id: number; command: string }) => {
  parentPort?.postMessage({ id: message.id, analysis: analyseCommand(message.command) });
});
