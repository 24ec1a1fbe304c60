/** The commented config.toml written by `hearth config init` and on a gateway's first start. */
export const DEFAULT_CONFIG_TOML = `# Hearth configuration. Every key is optional; the values shown are the defaults.
# Secret values (any *_api_key or *_secret) may be a literal, ENV:VAR_NAME, or op://vault/item/field.

[gateway]
# Address to bind. Anything but a loopback address needs api_key (or allow_unauthenticated).
host = "127.0.0.1"
port = 7432
# When set, every /api/* request and every WebSocket must send it (header X-API-Key, or the
# WebSocket subprotocol hearth.key.<base64url(key)>). Set one with: hearth config set-key
api_key = ""
# With [memory] cache_url: the key gateways sharing that Redis sign what they share with (pending
# approvals, session events). The same value on each, at least 32 characters, never given to
# clients: cluster_secret = "ENV:HEARTH_CLUSTER_SECRET" with HEARTH_CLUSTER_SECRET=$(openssl rand -hex 32).
# Unset: nothing on Redis is trusted, and approvals and events stay on each gateway.
cluster_secret = ""
allow_unauthenticated = false
# Extra browser origins allowed for CORS and WebSocket upgrades (the gateway's own are implied).
cors_origins = []
# Extra names a request's Host may carry (DNS-rebinding check), e.g. a reverse proxy's public name.
allowed_hosts = []
# Largest accepted request body, in bytes.
body_limit_bytes = 1048576
shutdown_timeout_ms = 5000
# Minutes after which an idle chat session leaves process memory (its memories stay).
session_idle_timeout_minutes = 30
log_level = "info"

[models]
# Model ids; the provider is inferred from the prefix (claude-, gpt-, gemini-, ollama/, ...).
primary = "ollama/llama3.2"
fallback = ""
fast = ""
local = "ollama/llama3.2"
ollama_base_url = "http://127.0.0.1:11434"
# anthropic_api_key = "ENV:ANTHROPIC_API_KEY"
# openai_api_key = "op://Private/OpenAI/credential"

[memory]
# Seconds a turn stays in the short-term cache.
short_term_ttl = 3600
# Largest turn (UTF-8 bytes) the short-term cache takes; a larger one is left out of it only.
short_term_max_item_bytes = 65536
# Bytes the in-process short-term cache holds in all; over it the least recently written sessions lose their oldest turns.
short_term_max_bytes = 33554432
# Days a long-term memory is kept after it was created (checked daily at 03:00); 0 keeps them forever.
long_term_days = 90
# redis://host:6379 for a shared cache; empty uses in-process storage.
cache_url = ""
# The Redis password for cache_url when the URL has none, e.g. "ENV:HEARTH_REDIS_PASSWORD".
cache_password_secret = ""
# http://host:6333 for a vector store; empty uses in-memory cosine search.
vector_store_url = ""
# A SQLite file path or a postgresql:// URL; empty uses memory.db in the state directory.
db_path = ""

[security]
require_shell_approval = true
# deny | allowlist | full
security = "allowlist"
# off | on-miss | always
ask = "on-miss"
# After the agent has read untrusted content in a turn (a web page, an MCP or skill result,
# fetched shell output): "prompt" asks even for an allowlisted command; "trust" does not.
untrusted_content = "prompt"
# Where approved shell commands run: "local" (this machine, own process group) or "sandbox"
# (the sandbox-executor sidecar at sandbox_url, throwaway containers).
executor = "local"
sandbox_url = ""
sandbox_token = ""
# The privacy audit skips the local runtime and vector store when they resolve to loopback;
# true: also when they resolve only to private addresses (e.g. containers of the same stack).
trust_private_services = false
# The embedded terminal (/ws/terminal): "auto" = on only when bound to a loopback address.
# It always needs a secret: api_key when set, else the token in {data_dir}/terminal.token.
terminal = "auto"

[voice]
stt = "whisper"
stt_model = "base"
stt_device = "cpu"
tts_engine = "auto"
wake_word = "hey hearth"
wake_word_threshold = 0.5
# An openWakeWord classifier: a name in {data_dir}/models/openwakeword/ or a path to its .onnx
# (melspectrogram.onnx and embedding_model.onnx beside it). Not bundled: their licence is
# non-commercial, so you copy the files there. Empty: phrase spotting on speech-to-text.
wake_word_model = ""
`;
