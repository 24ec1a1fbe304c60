/**
 * The files that start the gateway at login: a systemd user unit (Linux) or a launchd agent
 * (macOS). Pure text builders; every path is quoted for its format.
 */
export interface AutostartTarget {
  /** The Node binary and the `hearth` script to run. */
  node: string;
  script: string;
  configPath: string;
  home: string;
}

export const SYSTEMD_UNIT = 'hearth.service';
export const LAUNCHD_LABEL = 'dev.hearth.gateway';

/** systemd quoting: a word in double quotes with `\` and `"` escaped, `%` doubled, `$` as `$$`. */
const sd = (value: string) =>
  `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;

export function systemdUnit(target: AutostartTarget): string {
  if ([target.node, target.script, target.configPath, target.home].some((v) => /[\n\r]/.test(v)))
    throw new Error('a path with a line break cannot go into a unit file');
  return [
    '# Written by hearth autostart enable; hearth autostart disable removes it.',
    '[Unit]',
    'Description=Hearth gateway (personal AI agent)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `Environment=${sd(`HEARTH_HOME=${target.home}`)}`,
    `ExecStart=${sd(target.node)} ${sd(target.script)} -c ${sd(target.configPath)} start`,
    'Restart=on-failure',
    'RestartSec=5',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function launchdPlist(target: AutostartTarget, logDir: string): string {
  const args = [target.node, target.script, '-c', target.configPath, 'start'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args.map((a) => `    <string>${xml(a)}</string>`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    '    <key>HEARTH_HOME</key>',
    `    <string>${xml(target.home)}</string>`,
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>StandardOutPath</key>',
    `  <string>${xml(`${logDir}/gateway.log`)}</string>`,
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(`${logDir}/gateway.log`)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
