/**
 * The files of a VPS deployment: the gateway behind Caddy, which gets a TLS certificate for the
 * domain and forwards everything; the gateway requires the random API key from `.env`.
 */
export interface BundleOptions {
  domain: string;
  /** ACME account e-mail for the certificate (optional). */
  email?: string;
  apiKey: string;
  image: string;
  /** The image is built on the server (`docker build`), never pulled: compose must not try. */
  builtLocally: boolean;
}

/**
 * The gateway image the project builds, under the tag its own tools give it: the Dockerfile's
 * `docker build -t hearth:local .` and scripts/build-images.sh (HEARTH_IMAGE_TAG, default
 * `local`). No registry publishes a Hearth image, so the bundle uses this one by default.
 */
export const LOCAL_IMAGE = 'hearth:local';
export const BUILD_COMMAND = `docker build -t ${LOCAL_IMAGE} .`;

/** A DNS name Caddy can get a certificate for (no scheme, port or path). */
export const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const EMAIL = /^[^\s@"'<>]{1,64}@[^\s@"'<>]{1,253}$/;

export function bundleFiles(
  options: BundleOptions,
): Record<string, { text: string; mode: number }> {
  if (!DOMAIN.test(options.domain)) throw new Error(`not a domain name: ${options.domain}`);
  if (options.email !== undefined && !EMAIL.test(options.email))
    throw new Error(`not an e-mail address: ${options.email}`);
  const compose = [
    '# hearth cloud generate: the gateway behind Caddy (TLS). Start with: docker compose up -d',
    ...(options.builtLocally
      ? [
          `# ${options.image} is built on this server from a Hearth checkout, never pulled:`,
          `#   ${BUILD_COMMAND}    (or scripts/build-images.sh, which builds every image)`,
        ]
      : []),
    'services:',
    // Seeds /data/config.toml from ./config.toml on the first start only; from then on the
    // gateway owns the copy in the volume (its settings endpoints rewrite it).
    '  gateway-init:',
    `    image: ${options.image}`,
    ...(options.builtLocally ? ['    pull_policy: never'] : []),
    '    user: node',
    '    entrypoint:',
    '      - node',
    '      - -e',
    '      - >-',
    "        const fs = require('node:fs');",
    '        try {',
    "          fs.copyFileSync('/seed/config.toml', '/data/config.toml', fs.constants.COPYFILE_EXCL);",
    "          fs.chmodSync('/data/config.toml', 0o600);",
    '        } catch (error) {',
    "          if (error.code !== 'EEXIST') throw error;",
    '        }',
    '    volumes:',
    '      - hearth-data:/data',
    '      - ./config.toml:/seed/config.toml:ro',
    "    restart: 'no'",
    '  gateway:',
    `    image: ${options.image}`,
    ...(options.builtLocally ? ['    pull_policy: never'] : []),
    '    init: true',
    '    restart: unless-stopped',
    '    environment:',
    '      HEARTH_API_KEY: ${HEARTH_API_KEY:?set in .env}',
    '    volumes:',
    '      - hearth-data:/data',
    '    expose:',
    '      - "7432"',
    '    depends_on:',
    '      gateway-init:',
    '        condition: service_completed_successfully',
    '  caddy:',
    '    image: caddy:2',
    '    restart: unless-stopped',
    '    ports:',
    '      - "80:80"',
    '      - "443:443"',
    '      - "443:443/udp"',
    '    volumes:',
    '      - ./Caddyfile:/etc/caddy/Caddyfile:ro',
    '      - caddy-data:/data',
    '      - caddy-config:/config',
    '    depends_on:',
    '      - gateway',
    'volumes:',
    '  hearth-data:',
    '  caddy-data:',
    '  caddy-config:',
    '',
  ].join('\n');
  const caddy = [
    ...(options.email ? ['{', `\temail ${options.email}`, '}', ''] : []),
    `${options.domain} {`,
    '\tencode zstd gzip',
    '\treverse_proxy gateway:7432',
    '}',
    '',
  ].join('\n');
  const config = [
    '# Hearth in the cloud: reachable from other machines, so the API key is required.',
    '# Copied into the hearth-data volume on the first start only (the gateway-init service).',
    '[gateway]',
    'host = "0.0.0.0"',
    'api_key = "ENV:HEARTH_API_KEY"',
    `allowed_hosts = ["${options.domain}"]`,
    '',
  ].join('\n');
  return {
    'docker-compose.yml': { text: compose, mode: 0o644 },
    Caddyfile: { text: caddy, mode: 0o644 },
    // No secret in it (the key is read from the environment), and the container's user must
    // read it to seed the volume.
    'config.toml': { text: config, mode: 0o644 },
    '.env': { text: `HEARTH_API_KEY=${options.apiKey}\n`, mode: 0o600 },
  };
}
