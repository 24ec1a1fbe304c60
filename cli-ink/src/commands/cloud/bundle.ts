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
}

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
    'services:',
    '  gateway:',
    `    image: ${options.image}`,
    '    restart: unless-stopped',
    '    environment:',
    '      HEARTH_HOME: /data',
    '      HEARTH_API_KEY: ${HEARTH_API_KEY:?set in .env}',
    '    command: ["start", "--bind", "0.0.0.0"]',
    '    volumes:',
    '      - hearth-data:/data',
    '      - ./config.toml:/data/config.toml',
    '    expose:',
    '      - "7432"',
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
    '[gateway]',
    'host = "0.0.0.0"',
    'api_key = "ENV:HEARTH_API_KEY"',
    `allowed_hosts = ["${options.domain}"]`,
    '',
  ].join('\n');
  return {
    'docker-compose.yml': { text: compose, mode: 0o644 },
    Caddyfile: { text: caddy, mode: 0o644 },
    'config.toml': { text: config, mode: 0o600 },
    '.env': { text: `HEARTH_API_KEY=${options.apiKey}\n`, mode: 0o600 },
  };
}
