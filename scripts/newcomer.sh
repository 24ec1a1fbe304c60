#!/usr/bin/env bash
# A newcomer's first five minutes, replayed: from a clean `git clone` of this checkout (its
# committed HEAD; uncommitted changes are not in the clone) into a temporary directory, follow
# README.md's quick start literally and check every first-run promise it makes.
#
#   nice -n 19 scripts/newcomer.sh [--keep] [--compose]
#
# What it does, each step printed as `PASS|FAIL|SKIP  <item>  (<seconds>)  <detail>`:
#   1. `npm install` on the system's Node (an older one takes the README's bootstrap path:
#      scripts/ensure-node.sh's Node 24, linked as node_modules/.bin/node). npm uses its local
#      cache first (npm_config_prefer_offline), so a machine that installed once needs no network;
#      NEWCOMER_OFFLINE=1 forbids the network (npm_config_offline: a package missing from the
#      cache fails the install).
#      The install must leave package-lock.json and every tracked file unchanged.
#   2. A TOML syntax error stops `npm start`, `./hearth start` and `./hearth config show` with
#      the reason, the line and a caret.
#   3. `npm start -- --port N` (a free port, not 7432) with a fresh HEARTH_HOME, in the
#      background; /health; `./hearth status` (found through gateway.runtime.json);
#      /api/v1/status `model_ready` (not ready: no provider), the embedder "off (… to turn on …)";
#      every "no provider" error names `hearth setup` and the set-up page (/#setup).
#   4. The web client: the index and each of its scripts fetched with the page's Origin (200,
#      never 403), and in headless Chromium (when installed) the page opening its set-up page.
#   5. The Ink dashboard (`hearth` alone, cli-ink/bin/hearth.js) in tmux (when installed): it
#      offers `s`; `s` runs `hearth setup` without crashing (no exit 13); Ollama's URL is
#      pre-filled; an empty answer takes the default; config.toml gets `ollama/<model>`; `q`
#      exits 0. The model is the project's fake LLM (gateway/src/testing/fakes/fake-llm), an
#      Ollama-compatible server on a free loopback port. Without tmux: `hearth setup --provider`.
#      (The dashboard with no gateway and with a broken config: e2e/dashboard-first-run.)
#   6. `./hearth stop` stops the foreground gateway on the other port; started again, /status
#      says a model is ready and `./hearth chat -m` answers (the time to the first answer).
#   7. `hearth update --check` against an upstream with a newer release tag never advises
#      installing an npm package (Hearth owns none).
#   8. Compose: the README's `.env` step is in both the online and the offline instructions; the
#      compose files parse with the compose client here (Debian's docker-compose 1.29 or the
#      plugin) and, without `.env`, fail naming the missing variable. With a Docker engine and the
#      gateway image (scripts/build-images.sh): the gateway container without a key says why in
#      its log. The published-port web client (HEARTH_PUBLISH_PORT) is covered by
#      e2e/compose-stack.e2e.test.ts; `--compose` runs that test here (a few minutes: the stack
#      comes up), otherwise it is listed as skipped with the command.
#
# Exit status: 0 when nothing failed, 1 otherwise. --keep leaves the temporary directory.
set -uo pipefail

keep=0
compose_e2e=0
for arg in "$@"; do
  case $arg in
    --keep) keep=1 ;;
    --compose) compose_e2e=1 ;;
    -h | --help)
      sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "newcomer.sh: unknown argument $arg (--keep, --compose)" >&2
      exit 2
      ;;
  esac
done

source_repo=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hearth-newcomer.XXXXXX")
clone=$work/hearth
home=$work/home
log=$work/logs
mkdir -p "$log"
tmux_socket=hearth-newcomer-$$
started_all=$(date +%s.%N)
passed=0
failed=0
skipped=0
gateway_pid=''
fake_pid=''

# A newcomer's PATH: without the project's Node 24 that this shell may have been given
# (`eval "$(scripts/ensure-node.sh --export)"`), so that the system's Node is what npm runs on.
newcomer_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e 'hearth/node24' -e 'node_modules/\.bin' |
  paste -sd: -)

cleanup() {
  [ -n "$gateway_pid" ] && kill -- "-$gateway_pid" 2>/dev/null
  [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null
  tmux -L "$tmux_socket" kill-server 2>/dev/null
  if [ "$keep" = 1 ]; then
    echo "kept: $work"
  else
    local removing
    removing=$(now)
    rm -rf "$work"
    echo "removed $work in $(since "$removing")"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
step_started=$(now)
begin() { step_started=$(now); }
pass() {
  passed=$((passed + 1))
  printf 'PASS  %-58s (%s)  %s\n' "$1" "$(since "$step_started")" "${2:-}"
}
fail() {
  failed=$((failed + 1))
  printf 'FAIL  %-58s (%s)  %s\n' "$1" "$(since "$step_started")" "${2:-}"
}
skip() {
  skipped=$((skipped + 1))
  printf 'SKIP  %-58s  skipped: %s\n' "$1" "$2"
}
# check NAME DETAIL COMMAND…: PASS when the command succeeds, else FAIL with DETAIL.
check() {
  local name=$1 detail=$2
  shift 2
  if "$@"; then pass "$name"; else fail "$name" "$detail"; fi
}

# Runs a command as the newcomer would type it in the clone (their PATH, the fresh state dir).
as_newcomer() { (cd "$clone" && env PATH="$newcomer_path" HEARTH_HOME="${HEARTH_HOME_OVERRIDE:-$home}" "$@"); }

free_port() {
  "$clone/node_modules/.bin/node" -e '
    const s = require("node:net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# wait_http URL SECONDS: until URL answers 2xx.
wait_http() {
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

start_gateway() {
  # npm start as the README says, in its own process group so that it can be stopped whole.
  (cd "$clone" && exec setsid env PATH="$newcomer_path" HEARTH_HOME="$home" \
    npm start -- --port "$port" >>"$log/gateway.log" 2>&1) &
  gateway_pid=$!
}

status_json() { curl -fsS --max-time 10 "$url/api/v1/status"; }
# json_get FILE EXPRESSION: a value of a JSON document, read with the clone's Node 24.
json_get() {
  "$clone/node_modules/.bin/node" -e '
    const doc = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    const v = new Function("d", "return d" + process.argv[2])(doc);
    process.stdout.write(typeof v === "string" ? v : JSON.stringify(v ?? null));' "$1" "$2"
}

echo "newcomer: $(git -C "$source_repo" log --oneline -1) in $work"
if [ -n "$(git -C "$source_repo" status --porcelain --untracked-files=no)" ]; then
  echo "      note: $source_repo has uncommitted changes; the clone has its last commit only"
fi

# --- 1. clone and install ----------------------------------------------------------------------
begin
if git clone -q "$source_repo" "$clone"; then pass 'git clone of this checkout'; else
  fail 'git clone of this checkout' "git clone $source_repo failed"
  exit 1
fi

begin
system_node=$(env PATH="$newcomer_path" node --version 2>/dev/null || echo none)
node_major=$(echo "$system_node" | sed -n 's/^v\([0-9]*\)\..*/\1/p')
echo "      system Node $system_node, npm $(env PATH="$newcomer_path" npm --version 2>/dev/null || echo none)"
begin
npm_offline=()
[ "${NEWCOMER_OFFLINE:-0}" = 1 ] && npm_offline=(npm_config_offline=true)
if as_newcomer env npm_config_prefer_offline=true "${npm_offline[@]}" npm install >"$log/install.log" 2>&1; then
  pass 'npm install (the local npm cache first)' "$(tail -n 3 "$log/install.log" | tr '\n' ' ' | cut -c1-120)"
else
  fail 'npm install (the local npm cache first)' "see $log/install.log: $(tail -n 5 "$log/install.log" | tr '\n' ' ')"
  keep=1
  exit 1
fi

begin
if [ -n "$node_major" ] && [ "$node_major" -lt 22 ]; then
  if [ -x "$clone/node_modules/.bin/node" ] && grep -q "npm scripts, npx and the hearth command use" "$log/install.log"; then
    pass "an older Node ($system_node) takes the bootstrap path" "$("$clone/node_modules/.bin/node" --version) linked as node_modules/.bin/node"
  else
    fail "an older Node ($system_node) takes the bootstrap path" 'no node_modules/.bin/node, or the prepare step did not say so'
  fi
else
  skip 'an older Node takes the bootstrap path' "the system Node is $system_node (not older than 22.12)"
fi

begin
changed=$(git -C "$clone" status --porcelain --untracked-files=no)
check 'npm install leaves package-lock.json (every tracked file) alone' "changed: $changed" test -z "$changed"

# --- 2. a TOML syntax error ---------------------------------------------------------------------
broken=$work/broken-home
mkdir -p "$broken"
printf '# a typo a newcomer makes\n[gateway]\nhost = "127.0.0.1\nport = 7499\n' >"$broken/config.toml"
toml_error_shown() { # FILE: the reason, the line number, the line and a caret
  grep -q 'Invalid TOML in .*config.toml at line 3, column' "$1" && grep -q '^3 | host = "127.0.0.1' "$1" &&
    grep -Eq '^ +\| +\^' "$1"
}
for how in 'npm start' './hearth start' './hearth config show'; do
  begin
  # shellcheck disable=SC2086 # the command's words
  HEARTH_HOME_OVERRIDE=$broken as_newcomer timeout 60 $how >"$log/toml.log" 2>&1
  code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 124 ] && toml_error_shown "$log/toml.log"; then
    pass "TOML syntax error: $how shows reason, line and caret"
  else
    fail "TOML syntax error: $how shows reason, line and caret" "exit $code: $(head -c 400 "$log/toml.log" | tr '\n' '|')"
  fi
done

# --- 3. npm start, /health, ./hearth status -----------------------------------------------------
port=$(free_port)
[ "$port" = 7432 ] && port=$(free_port)
url=http://127.0.0.1:$port
begin
started_gateway=$(now)
start_gateway
if wait_http "$url/health" 120; then
  pass "npm start -- --port $port (fresh HEARTH_HOME) answers /health" "$(curl -fsS "$url/health")"
else
  fail "npm start -- --port $port (fresh HEARTH_HOME) answers /health" "$(tail -n 20 "$log/gateway.log" | tr '\n' '|')"
  keep=1
  exit 1
fi

begin
# The runtime file is written once the gateway listens: a moment after /health may answer.
for _ in $(seq 50); do [ -f "$home/gateway.runtime.json" ] && break; sleep 0.1; done
mode=$(stat -c %a "$home" 2>/dev/null)
if [ "$mode" = 700 ] && grep -q '^#' "$home/config.toml" 2>/dev/null && [ -f "$home/gateway.runtime.json" ]; then
  pass 'the first start made ~/.hearth (0700), a commented config.toml, the runtime file'
else
  fail 'the first start made ~/.hearth (0700), a commented config.toml, the runtime file' "mode $mode; $(ls -la "$home" | tr '\n' '|')"
fi

begin
as_newcomer ./hearth status >"$log/status.txt" 2>&1
code=$?
if [ "$code" = 0 ] && grep -q "Hearth at $url" "$log/status.txt"; then
  pass './hearth status finds the gateway on the other port (runtime file)'
else
  fail './hearth status finds the gateway on the other port (runtime file)' "exit $code: $(head -c 300 "$log/status.txt" | tr '\n' '|')"
fi
begin
first=$(sed -n 2p "$log/status.txt")
if echo "$first" | grep -q 'model .*NOT READY.*hearth setup'; then
  pass './hearth status: its first line says no model is ready, and hearth setup' "${first# *}"
else
  fail './hearth status: its first line says no model is ready, and hearth setup' "$first"
fi

begin
status_json >"$log/status.json"
ready_ok=$(json_get "$log/status.json" '.model_ready?.ok')
ready_fix=$(json_get "$log/status.json" '.model_ready?.fix')
if [ "$ready_ok" = false ] && [[ $ready_fix == *'hearth setup'* ]] && [[ $ready_fix == *'/#setup'* ]]; then
  pass '/status model_ready: not ok without a provider, fix names setup and /#setup' "$(json_get "$log/status.json" '.model_ready.detail' | cut -c1-80)"
else
  fail '/status model_ready: not ok without a provider, fix names setup and /#setup' "$(json_get "$log/status.json" '.model_ready')"
fi

begin
embedder=$(json_get "$log/status.json" '.backends?.embedder')
if [[ $embedder == off\ \(*to\ turn\ on* ]]; then
  pass 'the absent embedder shows "off (… to turn on …)"' "$embedder"
else
  fail 'the absent embedder shows "off (… to turn on …)"' "embedder: $embedder"
fi

begin
as_newcomer ./hearth chat -m hello >"$log/chat-none.txt" 2>&1
code=$?
curl -sS --max-time 30 -H 'content-type: application/json' -d '{"message":"hello"}' \
  "$url/api/v1/chat" >"$log/chat-none.json" 2>&1
if [ "$code" -ne 0 ] && grep -q 'hearth setup' "$log/chat-none.txt" && grep -q '/#setup' "$log/chat-none.txt" &&
  grep -q 'hearth setup' "$log/chat-none.json" && grep -q '/#setup' "$log/chat-none.json"; then
  pass 'no provider: hearth chat and POST /chat name hearth setup and /#setup'
else
  fail 'no provider: hearth chat and POST /chat name hearth setup and /#setup' "exit $code: $(head -c 200 "$log/chat-none.txt" | tr '\n' '|') / $(head -c 200 "$log/chat-none.json")"
fi

# --- 4. the web client ----------------------------------------------------------------------------
begin
index_status=$(curl -sS -o "$log/index.html" -w '%{http_code}' "$url/")
scripts=$(grep -o '<script[^>]*src="[^"]*"' "$log/index.html" | sed 's/.*src="\([^"]*\)"/\1/')
bad=''
for src in $scripts; do
  code=$(curl -sS -o /dev/null -w '%{http_code}' -H "Origin: $url" "$url${src#.}")
  [ "$code" = 200 ] || bad="$bad $src:$code"
done
if [ "$index_status" = 200 ] && [ -n "$scripts" ] && [ -z "$bad" ]; then
  pass "web client on port $port: index and scripts 200 with the page's Origin" "$(echo "$scripts" | wc -l) script(s)"
else
  fail "web client on port $port: index and scripts 200 with the page's Origin" "index $index_status; scripts: ${scripts:-none};$bad"
fi

begin
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  skip 'the web client opens its set-up page in Chromium' 'no chromium on the PATH'
elif [ ! -d "$clone/node_modules/playwright-core" ]; then
  skip 'the web client opens its set-up page in Chromium' 'playwright-core is not installed'
else
  (cd "$clone" && node_modules/.bin/node --input-type=module -e '
    import { chromium } from "playwright-core";
    const [url, executablePath] = process.argv.slice(1);
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    const problems = [];
    try {
      const page = await browser.newPage();
      page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      await page.goto(url);
      await page.waitForFunction(() => location.hash === "#setup", null, { timeout: 20000 });
      const text = await page.locator("body").innerText();
      if (!/setup|set up|provider/i.test(text)) problems.push(`no set-up page: ${text.slice(0, 200)}`);
    } catch (error) {
      problems.push(String(error.message).split("\n")[0]);
    } finally {
      await browser.close();
    }
    if (problems.length > 0) { console.log(problems.join("; ")); process.exit(1); }
  ' "$url/" "$chromium") >"$log/chromium.txt" 2>&1
  check 'the web client opens its set-up page (/#setup) in Chromium' "$(head -c 300 "$log/chromium.txt")" test $? = 0
fi

# --- 5. the fake model, the dashboard and hearth setup ---------------------------------------------
fake_port=$(free_port)
fake_url=http://127.0.0.1:$fake_port
(cd "$clone" && exec node_modules/.bin/node gateway/src/testing/fakes/fake-llm/main.ts \
  --port "$fake_port" --model llama3.2 --reply 'Hello from the fake model.' >"$log/fake-llm.log" 2>&1) &
fake_pid=$!
wait_http "$fake_url/api/tags" 30 || echo "      the fake LLM did not answer: $(cat "$log/fake-llm.log")"

tmux_() { tmux -L "$tmux_socket" "$@"; }
# The pane's text, read whole first (a reader that stops early must not fail the pipe).
pane() {
  local text
  text=$(tmux_ capture-pane -p -t newcomer 2>/dev/null)
  printf '%s\n' "$text"
}
# wait_pane TEXT SECONDS: until the pane shows TEXT.
wait_pane() {
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    [[ $(pane) == *"$1"* ]] && return 0
    tmux_ has-session -t newcomer 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
pane_tail() { pane | grep -v '^\s*$' | tail -n 6 | tr '\n' '|'; }

if ! command -v tmux >/dev/null 2>&1; then
  skip 'the dashboard (hearth alone) in tmux' 'tmux is not installed (Debian package tmux)'
  begin
  as_newcomer ./hearth setup --provider ollama --base-url "$fake_url" --model llama3.2 >"$log/setup.txt" 2>&1
  if grep -q 'primary = "ollama/llama3.2"' "$home/config.toml"; then
    pass 'hearth setup --provider ollama writes ollama/<model>'
  else
    fail 'hearth setup --provider ollama writes ollama/<model>' "$(tr '\n' '|' <"$log/setup.txt")"
  fi
else
  begin
  exit_file=$work/dashboard.exit
  # `hearth` alone in a terminal, as cli-ink/bin/hearth.js (npx hearth, a linked hearth) runs it
  # on the newcomer's Node; its exit status is kept for the check after `q`.
  tmux_ new-session -d -x 100 -y 30 -s newcomer \
    "cd '$clone' && env PATH='$newcomer_path' HEARTH_HOME='$home' NO_COLOR=1 TERM=xterm-256color node cli-ink/bin/hearth.js; echo \$? >'$exit_file'; sleep 30"
  if wait_pane 'press s to run hearth setup' 60 &&
    [[ $(pane | sed -n 1p) == "Hearth $url · needs setup: no model can answer, press s"* ]]; then
    pass 'the dashboard (hearth alone): first line "needs setup", s offered' "$(pane | awk '/^model:/ && !n { sub(/  .*/, ""); print; n = 1 }')"
  else
    fail 'the dashboard (hearth alone): first line "needs setup", s offered' "$(pane | sed -n 1p) $(pane_tail)"
  fi
  begin
  tmux_ send-keys -t newcomer s
  if wait_pane 'Number or name:' 20 && sleep 1 && [ ! -s "$exit_file" ]; then
    pass 'dashboard: s runs hearth setup without crashing (no exit 13)'
  else
    fail 'dashboard: s runs hearth setup without crashing (no exit 13)' "exit $(cat "$exit_file" 2>/dev/null): $(pane_tail)"
  fi
  begin
  tmux_ send-keys -t newcomer -l ollama
  tmux_ send-keys -t newcomer Enter
  if wait_pane 'ollama_base_url [http://127.0.0.1:11434]:' 20; then
    pass 'hearth setup pre-fills the Ollama URL'
  else
    fail 'hearth setup pre-fills the Ollama URL' "$(pane_tail)"
  fi
  begin
  tmux_ send-keys -t newcomer -l "$fake_url"
  tmux_ send-keys -t newcomer Enter
  wait_pane 'Model [ollama/llama3.2]:' 20
  tmux_ send-keys -t newcomer Enter # an empty answer: the default model
  if wait_pane 'Set an API key' 30; then
    pass 'hearth setup takes an empty answer as the default and checks live'
  else
    fail 'hearth setup takes an empty answer as the default and checks live' "$(pane_tail)"
  fi
  tmux_ send-keys -t newcomer Enter # no gateway API key: setup writes config.toml now
  begin
  written() {
    grep -q 'primary = "ollama/llama3.2"' "$home/config.toml" &&
      grep -qF "ollama_base_url = \"$fake_url\"" "$home/config.toml"
  }
  for _ in $(seq 200); do written && break; sleep 0.1; done
  if written; then
    pass 'hearth setup (Ollama) writes ollama/<model> and the URL to config.toml'
  else
    fail 'hearth setup (Ollama) writes ollama/<model> and the URL to config.toml' "$(grep -E 'primary|ollama' "$home/config.toml" | tr '\n' '|')"
  fi
  begin
  wait_pane 'phase ready' 30
  tmux_ send-keys -t newcomer q
  for _ in $(seq 100); do [ -s "$exit_file" ] && break; sleep 0.1; done
  code=$(cat "$exit_file" 2>/dev/null || echo none)
  check 'dashboard: back after setup, q exits 0' "exit $code: $(pane_tail)" test "$code" = 0
  tmux_ kill-server 2>/dev/null
fi

# --- 6. hearth stop, npm start again, the first answer ----------------------------------------------
begin
as_newcomer ./hearth stop >"$log/stop.txt" 2>&1
code=$?
for _ in $(seq 100); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.1; done
if [ "$code" = 0 ] && ! kill -0 "$gateway_pid" 2>/dev/null; then
  pass './hearth stop stops the foreground gateway on the other port' "$(head -n 1 "$log/stop.txt")"
  gateway_pid=''
else
  fail './hearth stop stops the foreground gateway on the other port' "exit $code: $(tr '\n' '|' <"$log/stop.txt")"
  kill -- "-$gateway_pid" 2>/dev/null
  sleep 1
fi

begin
restarted=$(now)
start_gateway
if wait_http "$url/health" 120; then
  status_json >"$log/status-ready.json"
  if [ "$(json_get "$log/status-ready.json" '.model_ready?.ok')" = true ]; then
    pass '/status model_ready: ok with the fake model' "$(json_get "$log/status-ready.json" '.model_ready.detail' | cut -c1-80)"
  else
    fail '/status model_ready: ok with the fake model' "$(json_get "$log/status-ready.json" '.model_ready')"
  fi
else
  fail 'npm start again after setup' "$(tail -n 20 "$log/gateway.log" | tr '\n' '|')"
fi

begin
as_newcomer ./hearth chat -m 'hello' >"$log/chat.txt" 2>&1
code=$?
if [ "$code" = 0 ] && grep -q 'Hello from the fake model.' "$log/chat.txt"; then
  pass './hearth chat -m answers (the fake model)' "first answer $(since "$restarted") after npm start, $(since "$started_all") after git clone"
else
  fail './hearth chat -m answers (the fake model)' "exit $code: $(tr '\n' '|' <"$log/chat.txt" | cut -c1-300)"
fi

begin
as_newcomer ./hearth stop >/dev/null 2>&1
for _ in $(seq 100); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.1; done
kill -- "-$gateway_pid" 2>/dev/null
gateway_pid=''

# --- 7. hearth update ----------------------------------------------------------------------------
begin
upstream=$work/upstream.git
git clone -q --bare "$clone" "$upstream" && git -C "$upstream" tag v99.0.0 HEAD &&
  git -C "$clone" remote set-url origin "$upstream"
as_newcomer ./hearth update --check >"$log/update.txt" 2>&1
as_newcomer ./hearth update --check --json >>"$log/update.txt" 2>&1
if grep -q '99.0.0' "$log/update.txt" && ! grep -Eiq 'npm (install|i|update|add) (-g|--global)|npx [a-z@]' "$log/update.txt"; then
  pass 'hearth update --check offers the release with git, never an npm package' "$(grep -m1 -i 'git' "$log/update.txt" | cut -c1-90)"
else
  fail 'hearth update --check offers the release with git, never an npm package' "$(tr '\n' '|' <"$log/update.txt" | cut -c1-400)"
fi

# --- 8. compose ------------------------------------------------------------------------------------
begin
offline=$(sed -n '/docker-compose.offline.yml/,$p' "$clone/README.md" | sed -n '/^```sh/,/^```/p')
if grep -q '> .env' <<<"$offline" && grep -q 'docker compose -f docker-compose.yml -f docker-compose.offline.yml up' <<<"$offline"; then
  pass "README's offline compose instructions include the .env step"
else
  fail "README's offline compose instructions include the .env step" 'no `> .env` in the offline block'
fi

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  compose=()
fi
if [ ${#compose[@]} = 0 ]; then
  skip 'the compose files parse; without .env compose names the key' 'no compose client (docker compose or docker-compose)'
else
  begin
  version=$("${compose[@]}" version --short 2>/dev/null || "${compose[@]}" version | head -n 1)
  env_block=$(sed -n '/^## Home lab/,$p' "$clone/README.md" | sed -n '/^```sh/,/^```/p' | sed -n '/^for name in/,/> .env/p' | head -n 2)
  (cd "$clone" && bash -c "$env_block") 2>/dev/null
  if [ -s "$clone/.env" ] &&
    (cd "$clone" && "${compose[@]}" -f docker-compose.yml config -q) >"$log/compose.txt" 2>&1 &&
    (cd "$clone" && "${compose[@]}" -f docker-compose.yml -f docker-compose.offline.yml config -q) >>"$log/compose.txt" 2>&1; then
    pass "compose ($version) reads both files with the README's .env"
  else
    fail "compose ($version) reads both files with the README's .env" "$(tr '\n' '|' <"$log/compose.txt" | cut -c1-300)"
  fi
  begin
  rm -f "$clone/.env"
  (cd "$clone" && "${compose[@]}" -f docker-compose.yml -f docker-compose.offline.yml config -q) >"$log/compose-noenv.txt" 2>&1
  code=$?
  if [ "$code" != 0 ] && grep -q 'set HEARTH_API_KEY in .env' "$log/compose-noenv.txt"; then
    pass "compose ($version) without .env refuses, naming HEARTH_API_KEY"
  else
    fail "compose ($version) without .env refuses, naming HEARTH_API_KEY" "exit $code: $(tr '\n' '|' <"$log/compose-noenv.txt" | cut -c1-300)"
  fi
fi

image=hearth:${HEARTH_IMAGE_TAG:-local}
if ! docker info >/dev/null 2>&1; then
  skip 'the gateway container without a key says why in its log' 'no Docker engine reachable'
  skip 'compose: the web client on HEARTH_PUBLISH_PORT' 'no Docker engine reachable'
elif ! docker image inspect "$image" >/dev/null 2>&1; then
  skip 'the gateway container without a key says why in its log' "no image $image (scripts/build-images.sh)"
  skip 'compose: the web client on HEARTH_PUBLISH_PORT' "no image $image (scripts/build-images.sh)"
else
  begin
  timeout 90 docker run --rm "$image" >"$log/container.txt" 2>&1
  code=$?
  if [ "$code" != 0 ] && [ "$code" != 124 ] && grep -q 'api_key' "$log/container.txt"; then
    pass 'the gateway container without a key says why in its log' "$(grep -m1 'api_key' "$log/container.txt" | cut -c1-90)"
  else
    fail 'the gateway container without a key says why in its log' "exit $code: $(tail -n 5 "$log/container.txt" | tr '\n' '|')"
  fi
  if [ "$compose_e2e" = 1 ]; then
    begin
    (cd "$clone" && node_modules/.bin/node node_modules/vitest/vitest.mjs run --project e2e \
      e2e/compose-stack.e2e.test.ts -t 'published port') >"$log/compose-e2e.txt" 2>&1
    code=$?
    if [ "$code" = 0 ] && grep -q '1 passed' "$log/compose-e2e.txt"; then
      pass 'compose: the web client on HEARTH_PUBLISH_PORT (e2e/compose-stack)'
    else
      fail 'compose: the web client on HEARTH_PUBLISH_PORT (e2e/compose-stack)' "exit $code; see $log/compose-e2e.txt: $(grep -m3 -E 'skipped|FAIL|Error' "$log/compose-e2e.txt" | tr '\n' '|')"
      keep=1
    fi
  else
    skip 'compose: the web client on HEARTH_PUBLISH_PORT' "covered by e2e/compose-stack.e2e.test.ts (npm run test:e2e); --compose runs it here"
  fi
fi

echo "newcomer: $passed passed, $failed failed, $skipped skipped in $(since "$started_all")"
[ "$failed" = 0 ]
