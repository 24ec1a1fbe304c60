/**
 * The rules that need two facts at once: a secret read *and* a network call is exfiltration,
 * a decoded blob *and* an eval is a hidden payload, a download *and* a chmod is a dropper.
 * Each finding lands on the line of the fact that makes it dangerous (the read, the run).
 */
import type { ModuleFacts } from './facts.ts';
import type { FindingSink } from './findings.ts';
import { checkDescription } from './tool-description.ts';

export function combineFacts(facts: ModuleFacts, sink: FindingSink): void {
  const net = facts.network.length > 0;
  const writesOrRuns = facts.fileWrite.length > 0 || facts.runsCode.length > 0;

  if (net) {
    for (const line of facts.envWhole) {
      sink.add(
        'exfil.env-to-network',
        line,
        'critical',
        'reads the whole environment and the module talks to the network',
      );
    }
    for (const line of facts.envSecret) {
      sink.add(
        'exfil.secret-env-to-network',
        line,
        'high',
        'reads a credential-like environment variable and the module talks to the network',
      );
    }
    for (const line of facts.hostInfo) {
      sink.add(
        'exfil.host-info-to-network',
        line,
        'high',
        'collects host or user facts and the module talks to the network',
      );
    }
  } else {
    for (const line of facts.envWhole) {
      sink.add('secrets.env-dump', line, 'medium', 'reads the whole environment');
    }
  }

  for (const m of facts.markers) {
    if (m.advice) {
      sink.add(
        `${m.rule}-in-advice`,
        m.line,
        'low',
        `mentions ${m.marker.slice(0, 80)} in text that warns about it`,
      );
      continue;
    }
    switch (m.kind) {
      case 'sensitive-path':
        if (net && facts.fileRead.length > 0) {
          sink.add(
            'exfil.secret-file-to-network',
            m.line,
            'critical',
            `names ${m.marker}, reads files and talks to the network`,
          );
        } else if (facts.fileRead.length > 0) {
          sink.add(
            'secrets.sensitive-file-read',
            m.line,
            'high',
            `names ${m.marker} and reads files`,
          );
        } else {
          sink.add(m.rule, m.line, m.severity, `names the credential path ${m.marker}`);
        }
        break;
      case 'persistence':
        if (writesOrRuns) {
          sink.add(
            'persistence.write',
            m.line,
            'high',
            `names ${m.marker} and writes files or runs commands`,
          );
        } else {
          sink.add(m.rule, m.line, m.severity, `names the start-up path ${m.marker}`);
        }
        break;
      case 'collector':
        sink.add(
          m.rule,
          m.line,
          net ? 'critical' : m.severity,
          `names the data collector ${m.marker}`,
        );
        break;
      case 'miner':
        sink.add(m.rule, m.line, m.severity, `crypto-miner marker ${m.marker}`);
        break;
      case 'reverse-shell':
        sink.add(m.rule, m.line, m.severity, `reverse-shell marker ${m.marker}`);
        break;
      case 'pipe-to-shell':
        sink.add(
          m.rule,
          m.line,
          m.severity,
          `pipes a download into a shell: ${m.marker.slice(0, 80)}`,
        );
        break;
    }
  }

  if (facts.runsCode.length > 0) {
    const hidden = [...facts.decodesBlob, ...facts.blob, ...facts.spelledOut];
    for (const line of hidden) {
      sink.add(
        'obfuscation.decode-and-run',
        line,
        'critical',
        'decodes an embedded blob and the module runs code',
      );
    }
    if (net) {
      for (const line of facts.runsCode) {
        sink.add(
          'download.fetch-and-run',
          line,
          'critical',
          'runs code and the module downloads from the network',
        );
      }
    }
  } else {
    for (const line of facts.decodesBlob) {
      sink.add('obfuscation.encoded-blob', line, 'medium', 'decodes a long embedded blob');
    }
    for (const line of facts.blob) {
      sink.add('obfuscation.encoded-blob', line, 'low', 'holds a long encoded literal');
    }
  }

  if (net && facts.fileWrite.length > 0) {
    for (const line of [...facts.chmod, ...facts.runsCode]) {
      sink.add(
        'download.write-and-execute',
        line,
        'critical',
        'writes a downloaded file and makes it executable or runs it',
      );
    }
  } else {
    for (const line of facts.chmod) {
      sink.add('files.chmod', line, 'medium', 'changes file permissions');
    }
  }

  // A worm: writes where another skill's code lives, or copies its own code around the folders.
  if (facts.fileWrite.length > 0) {
    for (const line of facts.codeTarget) {
      sink.add(
        'worm.writes-skill-code',
        line,
        'critical',
        "names a skill's code file and writes files",
      );
    }
    if (facts.dirWalk.length > 0) {
      for (const line of facts.codeExtension) {
        sink.add(
          'worm.writes-code-files',
          line,
          'critical',
          'lists folders for files with a code extension and writes files',
        );
      }
      for (const line of facts.selfRead) {
        sink.add(
          'worm.self-copy',
          line,
          'critical',
          'reads its own code, lists folders and writes files: it can copy itself into others',
        );
      }
    }
  }

  // A stealer that needs no known path: files under the home folder sent to a bare address.
  if (net && facts.fileRead.length > 0 && facts.homePath.length > 0) {
    for (const line of facts.bareIp) {
      sink.add(
        'exfil.home-file-to-bare-ip',
        line,
        'high',
        'reads files under the home folder and talks to a bare IP address',
      );
    }
  }

  const own = new Set(facts.ownTools);
  for (const d of facts.descriptions) {
    for (const issue of checkDescription(d.text, own)) {
      if (
        d.hiddenOnly &&
        issue.rule !== 'description.hidden-text' &&
        issue.rule !== 'description.command'
      )
        continue;
      sink.add(issue.rule, d.line, 'high', `a tool description ${issue.message}`);
    }
  }

  if (net) {
    for (const line of facts.pipesStdio) {
      sink.add(
        'reverse-shell.socket-to-shell',
        line,
        'critical',
        "wires a process's standard streams to a network connection",
      );
    }
  }
}
