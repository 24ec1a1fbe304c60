export { createSandboxServer, TOKEN_HEADER } from './server.ts';
export type { SandboxServerOptions } from './server.ts';
export { createProcessBackend } from './backends/process-backend.ts';
export { createDockerBackend, WORK_DIR, SANDBOX_LABEL } from './backends/docker-backend.ts';
export type {
  DockerBackend,
  DockerBackendOptions,
  DockerClient,
} from './backends/docker-backend.ts';
export type { Backend, BackendRequest, BackendResult } from './backends/ports.ts';
export { selectBackend } from './select-backend.ts';
export { createJsonLogger, silentLogger } from './logger.ts';
export type { Logger } from './logger.ts';
/** The dockerode client class, for callers that build their own engine client (e2e tests). */
export { default as Docker } from 'dockerode';
export type { DockerOptions } from 'dockerode';
export { createProcessLauncher } from './skills/process-launcher.ts';
export { createDockerLauncher } from './skills/docker-launcher.ts';
export type { SkillLauncher } from './skills/launcher.ts';
