"""The runtime of seed-format skill.py files, run as `python3 -I runtime.py <skill.py> <data dir>`
inside bubblewrap (never in the gateway). The same line protocol as runtime.mjs:
  {"id":1,"method":"tools"}                                -> {"id":1,"result":[ToolSpec...]}
  {"id":2,"method":"call","params":{"tool":"t","args":{}}} -> {"id":2,"result":"text"}
  failures                                                 -> {"id":n,"error":{"message":"..."}}
A load failure is reported once as {"id":0,"error":...} and the process exits.

The skill gets Hearth's API as the module `hearth` (also `Plugin` is predefined in the skill's
namespace): `class Weather(Plugin):` is made once and its public methods served as tools, and
`shell(command)` / `browser(args)` ask the gateway, while a call runs, to run its own gated tool
(only for a skill that declares `CAPABILITIES = ["shell"]` or "browser"):
  child   -> {"request":1,"method":"shell","params":{"command":"ls"}}
  gateway -> {"reply":1,"result":"text"}   or   {"reply":1,"error":{"message":"..."}}

The skill has no network of its own: `fetch(url, method=, headers=, body=)` (also
`urllib.request.urlopen`, replaced before the skill loads) asks the gateway to make the request,
which alone decides (the hosts skill.json declares, https, public addresses) and records it:
  child   -> {"request":2,"method":"fetch","params":{"url":"https://...","method":"GET",...}}
  gateway -> {"reply":2,"result":"{\"status\":200,\"headers\":[...],\"body\":\"<base64>\"}"}

Bubblewrap is the wall (file system, network, a PID namespace). An audit hook installed before
the skill loads adds a second one Python cannot take back: no processes, no native libraries
(ctypes), no writes outside the data folder, and no sockets at all.
"""
import base64
import email.message
import inspect
import importlib.util
import io
import json
import os
import sys
import types
import urllib.error
import urllib.request

SKILL_FILE = sys.argv[1]
DATA_DIR = os.path.realpath(sys.argv[2])

PROTOCOL = sys.stdout
sys.stdout = sys.stderr  # the skill's prints go to stderr; stdout carries the protocol

BLOCKED_EVENTS = (
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
    "os.forkpty", "os.kill", "os.killpg", "pty.spawn", "ctypes.dlopen", "ctypes.dlsym",
    "ctypes.cdata", "ctypes.call_function", "ctypes.addressof", "sys.remote_exec",
)
BLOCKED_MODULES = ("ctypes", "_ctypes", "_posixsubprocess", "subprocess", "multiprocessing", "pty")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _inside_data(path):
    try:
        real = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return False
    return real == DATA_DIR or real.startswith(DATA_DIR + os.sep)


def _audit(event, args):
    if event in BLOCKED_EVENTS:
        raise PermissionError(f"blocked in a skill: {event}")
    if event == "import" and args and str(args[0]).split(".")[0] in BLOCKED_MODULES:
        raise PermissionError(f"blocked in a skill: import {args[0]}")
    if event == "open" and len(args) >= 3:
        path, mode, flags = args[0], args[1], args[2]
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & WRITE_FLAGS
        )
        if writing and not isinstance(path, int) and not _inside_data(path):
            raise PermissionError(f"blocked in a skill: writing {path}")
    if event in ("socket.connect", "socket.bind", "socket.sendto", "socket.getaddrinfo"):
        raise PermissionError("blocked in a skill: no sockets (fetch() asks the gateway)")


def send(message):
    PROTOCOL.write(json.dumps(message) + "\n")
    PROTOCOL.flush()


class Plugin:
    """The base class of a plugin: the runtime makes one instance and serves its public methods."""


_host_requests = [0]


class HostCallError(Exception):
    """The gateway refused a request for one of its tools."""


def _host_call(method, params):
    """Sends a request to the gateway and waits for its reply (calls run one at a time)."""
    _host_requests[0] += 1
    request_id = _host_requests[0]
    send({"request": request_id, "method": method, "params": params})
    while True:
        line = sys.stdin.readline()
        if not line:
            raise HostCallError("the gateway closed the connection")
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("reply") != request_id:
            continue
        if message.get("error"):
            raise HostCallError(str((message.get("error") or {}).get("message")))
        result = message.get("result")
        return result if isinstance(result, str) else ""


def shell(command, timeout=None, workdir=None):
    """Runs a command line through the gateway's gated shell tool; returns its text answer."""
    params = {"command": command}
    if timeout is not None:
        params["timeout"] = timeout
    if workdir is not None:
        params["workdir"] = workdir
    return _host_call("shell", params)


def browser(args):
    """Drives the gateway's gated browser tool with the browser tool's arguments."""
    return _host_call("browser", dict(args))


class FetchError(OSError):
    """The gateway refused the request or it failed (the message says why)."""


class Response:
    """What the gateway answered: status, headers (lower-case name, value pairs) and body."""

    def __init__(self, answer):
        self.status = int(answer.get("status", 0))
        self.reason = str(answer.get("statusText", ""))
        self.headers = [(str(n), str(v)) for n, v in answer.get("headers", [])]
        self.body = base64.b64decode(answer.get("body", "") or "")
        self.url = str(answer.get("url", ""))
        self.redirected = answer.get("redirected") is True

    @property
    def ok(self):
        return 200 <= self.status < 300

    def header(self, name, default=None):
        name = name.lower()
        for key, value in self.headers:
            if key == name:
                return value
        return default

    def text(self, encoding="utf-8"):
        return self.body.decode(encoding, errors="replace")

    def json(self):
        return json.loads(self.body)


def fetch(url, method="GET", headers=None, body=None, redirect="follow"):
    """Makes an https request through the gateway (declared hosts only); returns a Response."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    pairs = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
    params = {
        "url": str(url),
        "method": str(method).upper(),
        "headers": [[str(n), str(v)] for n, v in pairs],
        "redirect": redirect,
    }
    if body:
        params["body"] = base64.b64encode(bytes(body)).decode("ascii")
    try:
        return Response(json.loads(_host_call("fetch", params)))
    except HostCallError as error:
        raise FetchError(str(error)) from None


class _UrlopenResponse(io.BytesIO):
    """What urllib.request.urlopen returns, enough for ordinary use (read, status, headers)."""

    def __init__(self, response):
        super().__init__(response.body)
        self.status = self.code = response.status
        self.reason = self.msg = response.reason
        self.url = response.url
        self.headers = email.message.Message()
        for name, value in response.headers:
            self.headers[name] = value

    def getcode(self):
        return self.status

    def geturl(self):
        return self.url

    def info(self):
        return self.headers

    def getheader(self, name, default=None):
        return self.headers.get(name, default)

    def getheaders(self):
        return list(self.headers.items())


def _urlopen(url, data=None, timeout=None, **_ignored):
    """urllib.request.urlopen over the gateway's fetch (https, declared hosts only)."""
    if isinstance(url, urllib.request.Request):
        method = url.get_method()
        headers = list(url.header_items())
        data = url.data if data is None else data
        target = url.full_url
    else:
        target = str(url)
        method = "POST" if data is not None else "GET"
        headers = []
    try:
        response = fetch(target, method=method, headers=headers, body=data)
    except FetchError as error:
        raise urllib.error.URLError(str(error)) from None
    wrapped = _UrlopenResponse(response)
    if response.status >= 400:
        raise urllib.error.HTTPError(target, response.status, response.reason, wrapped.headers, wrapped)
    return wrapped


urllib.request.urlopen = _urlopen

HEARTH = types.ModuleType("hearth", "Hearth's API for skill.py skills")
HEARTH.Plugin = Plugin
HEARTH.shell = shell
HEARTH.browser = browser
HEARTH.fetch = fetch
HEARTH.FetchError = FetchError
HEARTH.Response = Response
sys.modules["hearth"] = HEARTH


JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


def tool_spec(name, fn):
    doc = inspect.getdoc(fn) or ""
    description = doc.split("\n\n")[0].replace("\n", " ").strip() or name
    properties, required = {}, []
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        schema = {}
        kind = JSON_TYPES.get(param.annotation)
        if kind:
            schema["type"] = kind
        properties[param.name] = schema
        if param.default is param.empty:
            required.append(param.name)
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required}}


def load():
    spec = importlib.util.spec_from_file_location("skill", SKILL_FILE)
    module = importlib.util.module_from_spec(spec)
    module.Plugin = Plugin
    spec.loader.exec_module(module)
    tools = {}
    plugins = []
    for name, value in vars(module).items():
        if inspect.isclass(value) and issubclass(value, Plugin) and value is not Plugin \
                and value.__module__ == module.__name__:
            plugins.append(value)
        if name.startswith("_") or not callable(value) or not inspect.isroutine(value):
            continue
        if getattr(value, "__module__", None) != module.__name__:
            continue
        tools[name] = value
    for cls in plugins:
        instance = cls()
        for klass in cls.__mro__:
            if klass is Plugin or klass is object:
                break
            for name, member in vars(klass).items():
                # Plain methods only: a staticmethod, classmethod or property is a helper, not a
                # tool (the validator lists the same).
                if name.startswith("_") or not inspect.isfunction(member) or name in tools:
                    continue
                tools[name] = getattr(instance, name)
    return tools


def text(value):
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str)


def main():
    sys.addaudithook(_audit)
    try:
        tools = load()
        specs = [tool_spec(name, fn) for name, fn in tools.items()]
    except BaseException as error:  # noqa: BLE001 - any load failure is reported
        send({"id": 0, "error": {"message": f"the skill did not load: {error}"}})
        sys.exit(1)
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        try:
            request = json.loads(line)
        except ValueError:
            send({"id": None, "error": {"message": "malformed request"}})
            continue
        if not isinstance(request, dict) or "reply" in request:
            continue  # a late reply to a request that already gave up
        request_id = request.get("id")
        try:
            if request.get("method") == "tools":
                send({"id": request_id, "result": specs})
            elif request.get("method") == "call":
                params = request.get("params") or {}
                fn = tools.get(params.get("tool"))
                if fn is None:
                    raise LookupError(f"no such tool: {params.get('tool')}")
                args = params.get("args") or {}
                result = fn(**args)
                if inspect.isawaitable(result):
                    raise TypeError("async functions are not supported in skill.py")
                send({"id": request_id, "result": text(result)})
            else:
                raise LookupError(f"unknown method: {request.get('method')}")
        except BaseException as error:  # noqa: BLE001 - a tool error, the runtime carries on
            if isinstance(error, KeyboardInterrupt):
                raise
            send({"id": request_id, "error": {"message": f"{type(error).__name__}: {error}"}})


main()
