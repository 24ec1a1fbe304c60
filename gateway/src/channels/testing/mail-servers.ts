/**
 * Test support: a real Dovecot (IMAP) and a real Postfix (SMTP) of the machine's Debian
 * packages, each started on free 127.0.0.1 ports with its own configuration, queue and
 * Maildirs in a temporary directory. Postfix delivers every `@example.test` recipient into the
 * recipient's Maildir (its `virtual` agent); Dovecot serves those Maildirs over IMAP with
 * plaintext logins from a passwd-file. Nothing of the machine's own mail setup is used.
 *
 * With `tls`, a throwaway self-signed certificate (openssl, into the temporary directory)
 * secures them as users run them: Dovecot with `ssl = required` (IMAPS from the start, STARTTLS
 * on the plain IMAP port), Postfix with a submission listener that demands STARTTLS and SASL AUTH
 * through Dovecot's auth socket, and an SMTPS (TLS from the start) listener with the same AUTH.
 * The plain SMTP port stays as it is (no STARTTLS offered): the tests' own way to inject mail.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer, { type SendMailOptions } from 'nodemailer';

export const MAIL_DOMAIN = 'example.test';
const DOVECOT = '/usr/sbin/dovecot';
const POSTFIX = '/usr/sbin/postfix';
const POSTFIX_MASTER = '/usr/lib/postfix/sbin/master';
const OPENSSL = '/usr/bin/openssl';
/** Maildirs belong to `nobody`: Postfix's virtual agent refuses root. */
const MAIL_UID = 65_534;

/** Why the real mail servers cannot run here, or undefined when they can. */
export function mailServersMissing(): string | undefined {
  if (!existsSync(DOVECOT)) return 'dovecot is not installed (apt-get install dovecot-imapd)';
  if (!existsSync(POSTFIX) || !existsSync(POSTFIX_MASTER))
    return 'postfix is not installed (apt-get install postfix)';
  if (process.getuid?.() !== 0) return 'postfix and dovecot need root to drop privileges';
  const users =
    spawnSync('id', ['postfix']).status === 0 && spawnSync('id', ['dovenull']).status === 0;
  if (!users) return 'the postfix and dovenull users are missing';
  return undefined;
}

/** Why the TLS-secured mail servers cannot run here, or undefined when they can. */
export function tlsMailServersMissing(): string | undefined {
  return (
    mailServersMissing() ??
    (existsSync(OPENSSL) ? undefined : 'openssl is not installed (apt-get install openssl)')
  );
}

/** A TCP port on 127.0.0.1 that was free a moment ago (nothing listens on it now). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function waitForPort(port: number, what: string, log: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await listening(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const tail = await readFile(log, 'utf8').catch(() => '(no log)');
  throw new Error(`${what} did not listen on ${port}:\n${tail.slice(-2_000)}`);
}

/** One delivered mail, parsed, with its raw source. */
export interface DeliveredMail {
  parsed: ParsedMail;
  source: Buffer;
}

/** The TLS side of the servers (`startMailServers(…, { tls: true })`). */
export interface MailTls {
  /** The self-signed certificate (PEM) both servers present: the CA a client must trust. */
  caFile: string;
  /** Dovecot's IMAPS: TLS from the start. (`imapPort` then offers STARTTLS and requires it.) */
  imapsPort: number;
  /** Postfix's submission: STARTTLS required, then AUTH required to send anything. */
  submissionPort: number;
  /** Postfix's SMTPS: TLS from the start, then AUTH required. */
  smtpsPort: number;
}

export interface MailServers {
  imapPort: number;
  smtpPort: number;
  /** Present when started with `tls: true`. */
  tls?: MailTls;
  /** `user@example.test` */
  address(user: string): string;
  password(user: string): string;
  /** Sends through Postfix's SMTP (nodemailer's message fields, or `raw` source). */
  send(mail: SendMailOptions): Promise<void>;
  /** Every mail delivered to `user`'s Maildir so far, oldest first. */
  mailbox(user: string): Promise<DeliveredMail[]>;
  /** The UIDs of `user`'s INBOX mails not yet flagged seen (over plain IMAP: servers without `tls`). */
  unseen(user: string): Promise<number[]>;
  /** Waits until `user` has more than `seen` mails; returns the new ones. */
  nextMail(user: string, seen: number, timeoutMs?: number): Promise<DeliveredMail[]>;
  stopDovecot(): Promise<void>;
  startDovecot(): Promise<void>;
  close(): Promise<void>;
}

interface TlsPorts {
  imapsPort: number;
  submissionPort: number;
  smtpsPort: number;
}

/** Dovecot's TLS settings and its auth socket for Postfix's SASL. */
function dovecotTls(dir: string): string {
  return `ssl = required
ssl_cert = <${dir}/tls/cert.pem
ssl_key = <${dir}/tls/key.pem
disable_plaintext_auth = yes
service auth {
  unix_listener auth-postfix {
    mode = 0666
  }
}
`;
}

function dovecotConf(
  dir: string,
  imapPort: number,
  withoutIdle: boolean,
  tls: TlsPorts | undefined,
): string {
  // Without IDLE: the capability list after login leaves it out (clients must poll).
  const capability = withoutIdle
    ? 'imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS\n'
    : '';
  return `${capability}base_dir = ${dir}/dovecot/run
state_dir = ${dir}/dovecot/state
log_path = ${dir}/dovecot/dovecot.log
instance_name = hearth-test-${imapPort}
protocols = imap
listen = 127.0.0.1
${tls ? '' : 'ssl = no\ndisable_plaintext_auth = no\n'}auth_mechanisms = plain login
first_valid_uid = 1
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/dovecot/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/dovecot/passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${imapPort}
  }
  inet_listener imaps {
    ${tls ? `address = 127.0.0.1\n    port = ${tls.imapsPort}\n    ssl = yes` : 'port = 0'}
  }
}
${tls ? dovecotTls(dir) : ''}service stats {
  unix_listener stats-writer {
    mode = 0666
  }
}
`;
}

function postfixMain(dir: string): string {
  return `compatibility_level = 3.6
queue_directory = ${dir}/postfix/queue
data_directory = ${dir}/postfix/data
meta_directory = /etc/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.${MAIL_DOMAIN}
mydomain = ${MAIL_DOMAIN}
myorigin = ${MAIL_DOMAIN}
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relay_domains =
maillog_file_prefixes = ${dir}/postfix
maillog_file = ${dir}/postfix/postfix.log
# Mail arrives as sent: no From, Date or Message-ID added to what lacks them.
local_header_rewrite_clients =
virtual_mailbox_domains = ${MAIL_DOMAIN}
virtual_mailbox_base = ${dir}/mail
virtual_mailbox_maps = texthash:${dir}/postfix/etc/mailboxes
virtual_uid_maps = static:${MAIL_UID}
virtual_gid_maps = static:${MAIL_UID}
virtual_minimum_uid = 100
message_size_limit = 20480000
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
default_transport = error:mail leaves the test domain
biff = no
`;
}

/** Postfix's secured listeners: every one demands TLS, then SASL AUTH (Dovecot's) to send. */
function postfixTlsListeners(dir: string, ports: TlsPorts): string[] {
  const secured = [
    `-o smtpd_tls_cert_file=${dir}/tls/cert.pem`,
    `-o smtpd_tls_key_file=${dir}/tls/key.pem`,
    '-o smtpd_sasl_auth_enable=yes',
    '-o smtpd_sasl_type=dovecot',
    `-o smtpd_sasl_path=${dir}/dovecot/run/auth-postfix`,
    '-o smtpd_tls_auth_only=yes',
    // The Received header records the TLS session, so a test can see the mail came in over it.
    '-o smtpd_tls_received_header=yes',
    // Loopback is in mynetworks: here only a login may send, wherever it comes from.
    '-o smtpd_client_restrictions=permit_sasl_authenticated,reject',
    '-o smtpd_relay_restrictions=permit_sasl_authenticated,reject',
  ].join(' ');
  return [
    `127.0.0.1:${ports.submissionPort} inet n - n - - smtpd -o smtpd_tls_security_level=encrypt ${secured}`,
    `127.0.0.1:${ports.smtpsPort} inet n - n - - smtpd -o smtpd_tls_wrappermode=yes ${secured}`,
    'tlsmgr    unix - - n 1000? 1 tlsmgr',
  ];
}

function postfixMaster(smtpPort: number, tlsListeners: string[] = []): string {
  const unix = [
    'cleanup   unix n - n - 0 cleanup',
    'qmgr      unix n - n 300 1 qmgr',
    'rewrite   unix - - n - - trivial-rewrite',
    'bounce    unix - - n - 0 bounce',
    'defer     unix - - n - 0 bounce',
    'trace     unix - - n - 0 bounce',
    'verify    unix - - n - 1 verify',
    'flush     unix n - n 1000? 0 flush',
    'proxymap  unix - - n - - proxymap',
    'showq     unix n - n - - showq',
    'error     unix - - n - - error',
    'retry     unix - - n - - error',
    'discard   unix - - n - - discard',
    'virtual   unix - n n - - virtual',
    'anvil     unix - - n - 1 anvil',
    'scache    unix - - n - 1 scache',
    'postlog   unix-dgram n - n - 1 postlogd',
  ];
  return [`127.0.0.1:${smtpPort} inet n - n - - smtpd`, ...tlsListeners, ...unix, ''].join('\n');
}

async function readMaildir(dir: string): Promise<DeliveredMail[]> {
  const files: { path: string; mtime: number; name: string }[] = [];
  for (const sub of ['new', 'cur']) {
    const names = await readdir(join(dir, sub)).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(dir, sub, name);
      const info = await stat(path).catch(() => undefined);
      if (info) files.push({ path, mtime: info.mtimeMs, name });
    }
  }
  // Postfix names each file `<seconds>.…M<microseconds>.<host>`: delivery order.
  const order = (name: string) => {
    const [seconds = '0'] = name.split('.');
    const micros = /M(\d+)/.exec(name)?.[1] ?? '0';
    return Number(seconds) * 1e6 + Number(micros);
  };
  files.sort((a, b) => order(a.name) - order(b.name) || a.mtime - b.mtime);
  const out: DeliveredMail[] = [];
  for (const file of files) {
    const source = await readFile(file.path).catch(() => undefined);
    if (source) out.push({ source, parsed: await simpleParser(source) });
  }
  return out;
}

/**
 * Starts Postfix and Dovecot for `users` (local parts at example.test; each may log in over
 * IMAP with the password `<user>-pw`). Call `mailServersMissing()` first.
 */
export async function startMailServers(
  users: string[],
  options: { withoutIdle?: boolean; tls?: boolean } = {},
): Promise<MailServers> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-mail-'));
  await chmod(dir, 0o755);
  for (const sub of [
    'dovecot/run',
    'dovecot/state',
    'postfix/etc',
    'postfix/queue',
    'postfix/data',
    'mail',
  ])
    await mkdir(join(dir, sub), { recursive: true });
  await chown(join(dir, 'mail'), MAIL_UID, MAIL_UID);
  const postfixUid = Number(spawnSync('id', ['-u', 'postfix']).stdout.toString().trim());
  await chown(join(dir, 'postfix/data'), postfixUid, 0);

  const [imapPort, smtpPort] = [await freePort(), await freePort()];
  const tlsPorts: TlsPorts | undefined = options.tls
    ? { imapsPort: await freePort(), submissionPort: await freePort(), smtpsPort: await freePort() }
    : undefined;
  if (tlsPorts) {
    await mkdir(join(dir, 'tls'));
    const made = spawnSync(
      OPENSSL,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        join(dir, 'tls/key.pem'),
        '-out',
        join(dir, 'tls/cert.pem'),
        '-subj',
        `/CN=mail.${MAIL_DOMAIN}`,
        '-addext',
        `subjectAltName=IP:127.0.0.1,DNS:mail.${MAIL_DOMAIN}`,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  }
  const address = (user: string) => `${user}@${MAIL_DOMAIN}`;
  const password = (user: string) => `${user}-pw`;
  const maildir = (user: string) => join(dir, 'mail', address(user), 'Maildir');

  await writeFile(
    join(dir, 'dovecot/passwd'),
    users
      .map(
        (u) =>
          `${address(u)}:{PLAIN}${password(u)}:${MAIL_UID}:${MAIL_UID}::${join(dir, 'mail', address(u))}\n`,
      )
      .join(''),
  );
  await writeFile(
    join(dir, 'dovecot/dovecot.conf'),
    dovecotConf(dir, imapPort, options.withoutIdle === true, tlsPorts),
  );
  await writeFile(join(dir, 'postfix/etc/main.cf'), postfixMain(dir));
  await writeFile(
    join(dir, 'postfix/etc/master.cf'),
    postfixMaster(smtpPort, tlsPorts && postfixTlsListeners(dir, tlsPorts)),
  );
  await writeFile(
    join(dir, 'postfix/etc/mailboxes'),
    users.map((u) => `${address(u)} ${address(u)}/Maildir/\n`).join(''),
  );

  const children = new Set<ChildProcess>();
  // Each server runs in its own process group: stopping it ends its every process (Dovecot's
  // imap sessions outlive a stopped master otherwise).
  const run = (command: string, args: string[]) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  };
  const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // the group is already gone
    }
  };
  const stopChild = async (child: ChildProcess | undefined) => {
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    signalGroup(child, 'SIGKILL');
  };

  // `postfix check` creates the queue's directories with the owners Postfix wants.
  const check = spawnSync(POSTFIX, ['-c', join(dir, 'postfix/etc'), 'check'], { encoding: 'utf8' });
  if (check.status !== 0)
    throw new Error(
      `postfix check failed: ${check.stderr}${await readFile(join(dir, 'postfix/postfix.log'), 'utf8').catch(() => '')}`,
    );
  const postfix = run(POSTFIX_MASTER, ['-c', join(dir, 'postfix/etc'), '-d']);
  let dovecot: ChildProcess | undefined;
  const startDovecot = async () => {
    dovecot = run(DOVECOT, ['-F', '-c', join(dir, 'dovecot/dovecot.conf')]);
    await waitForPort(imapPort, 'dovecot', join(dir, 'dovecot/dovecot.log'));
  };
  try {
    await startDovecot();
    const postfixLog = join(dir, 'postfix/postfix.log');
    await waitForPort(smtpPort, 'postfix', postfixLog);
    if (tlsPorts) {
      await waitForPort(tlsPorts.imapsPort, 'dovecot imaps', join(dir, 'dovecot/dovecot.log'));
      await waitForPort(tlsPorts.submissionPort, 'postfix submission', postfixLog);
      await waitForPort(tlsPorts.smtpsPort, 'postfix smtps', postfixLog);
    }
  } catch (error) {
    for (const child of children) await stopChild(child);
    throw error;
  }

  const smtp = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    ignoreTLS: true,
  });

  const servers: MailServers = {
    imapPort,
    smtpPort,
    ...(tlsPorts ? { tls: { caFile: join(dir, 'tls/cert.pem'), ...tlsPorts } } : {}),
    address,
    password,
    async send(mail) {
      await smtp.sendMail(mail);
    },
    mailbox: (user) => readMaildir(maildir(user)),
    async unseen(user) {
      const probe = new ImapFlow({
        host: '127.0.0.1',
        port: imapPort,
        secure: false,
        doSTARTTLS: false,
        auth: { user: address(user), pass: password(user) },
        logger: false,
      });
      await probe.connect();
      try {
        await probe.mailboxOpen('INBOX', { readOnly: true });
        return (await probe.search({ seen: false }, { uid: true })) || [];
      } finally {
        await probe.logout();
      }
    },
    async nextMail(user, seen, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mails = await readMaildir(maildir(user));
        if (mails.length > seen) return mails.slice(seen);
        if (Date.now() > deadline)
          throw new Error(`no new mail for ${user} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stopDovecot() {
      await stopChild(dovecot);
    },
    startDovecot,
    async close() {
      smtp.close();
      await stopChild(dovecot);
      await stopChild(postfix);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return servers;
}
