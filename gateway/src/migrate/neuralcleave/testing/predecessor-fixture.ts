import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The predecessor's `memory_entries` exactly as its long-term store creates it
 * (`neuralcleave/memory/long_term.py`, `init_schema`).
 */
const PREDECESSOR_SCHEMA = `
CREATE TABLE IF NOT EXISTS memory_entries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id       TEXT    NOT NULL,
    content          TEXT    NOT NULL,
    importance_score REAL    NOT NULL DEFAULT 0.5,
    memory_type      TEXT    NOT NULL DEFAULT 'general',
    tags             TEXT    NOT NULL DEFAULT '',
    created_at       TEXT    NOT NULL,
    last_accessed_at TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_mem_session ON memory_entries (session_id);
CREATE INDEX IF NOT EXISTS idx_mem_importance ON memory_entries (session_id, importance_score DESC);
`;

export interface FixtureRow {
  session_id: string;
  content: string;
  importance_score: number;
  memory_type: string;
  tags: string;
  created_at: string;
}

export const FIXTURE_ROWS: readonly FixtureRow[] = [
  {
    session_id: 'telegram:42',
    content: 'User prefers concise answers.',
    importance_score: 0.9,
    memory_type: 'preference',
    tags: 'preference,style',
    created_at: '2025-03-01T10:00:00+00:00',
  },
  {
    session_id: 'telegram:42',
    content: 'The cat is called Miso.',
    importance_score: 0.7,
    memory_type: 'general',
    tags: 'pets, family',
    created_at: '2025-04-02T08:30:00.123456+00:00',
  },
  {
    session_id: 'web:abc',
    content: 'Project Hearth ships in November.',
    importance_score: 1.4,
    memory_type: 'fact',
    tags: '',
    created_at: '2025-05-03T12:00:00+00:00',
  },
  // The same memory as the first one, differently spaced and cased: one row in Hearth.
  {
    session_id: 'telegram:42',
    content: 'user prefers   concise answers.',
    importance_score: 0.5,
    memory_type: 'preference',
    tags: 'style',
    created_at: '2025-06-01T00:00:00+00:00',
  },
];

/** `config.toml` as the predecessor's `config init` and docs write it. */
export const FIXTURE_CONFIG = `[agent]
name = "Jarvis"

[models]
primary = "claude-opus-4-8"
fallback = "gemini-2.5-flash"
anthropic_api_key = "sk-ant-fixture-secret"
gemini_api_key = "ENV:GEMINI_API_KEY"
qianfan_api_key = "qf-secret"
ollama_base_url = "http://localhost:11434"

[memory]
short_term_ttl = 1800
long_term_days = 30
redis_url = "redis://localhost:6379"
qdrant_url = "http://localhost:6333"
sqlite_path = "~/.neuralcleave/memory.db"

[voice]
stt = "whisper"
tts = "elevenlabs"

[gateway]
port = "not-a-port"
bind = "127.0.0.1"

[ui]
web_port = 3000

[channels.telegram]
enabled = true
bot_token = "ENV:TELEGRAM_BOT_TOKEN"
`;

/** A `~/.neuralcleave` in the predecessor's formats, for the migration tests. */
export async function writePredecessorFixture(dir: string): Promise<void> {
  await mkdir(join(dir, 'skills', 'greet'), { recursive: true });
  await mkdir(join(dir, 'skills', 'shell_out'), { recursive: true });
  await writeFile(join(dir, 'config.toml'), FIXTURE_CONFIG);
  const db = new Database(join(dir, 'memory.db'));
  try {
    db.exec(PREDECESSOR_SCHEMA);
    const insert = db.prepare(
      `INSERT INTO memory_entries
         (session_id, content, importance_score, memory_type, tags, created_at, last_accessed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const row of FIXTURE_ROWS)
      insert.run(
        row.session_id,
        row.content,
        row.importance_score,
        row.memory_type,
        row.tags,
        row.created_at,
        row.created_at,
      );
  } finally {
    db.close();
  }
  await writeFile(
    join(dir, 'skills', 'greet', 'skill.py'),
    'def greet(name: str) -> str:\n    """Say hello."""\n    return f"Hello, {name}!"\n',
  );
  await writeFile(
    join(dir, 'skills', 'shell_out', 'skill.py'),
    'import subprocess\n\ndef run(cmd: str) -> str:\n    return subprocess.check_output(cmd)\n',
  );
  await writeFile(
    join(dir, 'push_subscriptions.json'),
    JSON.stringify(
      {
        a1b2c3d4e5f60718: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
          p256dh:
            'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
          user_agent: 'Mozilla/5.0',
          created_at: '2025-05-01T00:00:00+00:00',
        },
        '0f1e2d3c4b5a6978': {
          endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/xyz',
          p256dh:
            'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      },
      null,
      2,
    ),
  );
}
