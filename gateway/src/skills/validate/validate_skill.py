"""Layer 1 for seed-format skill.py: parse the source with Python's own ast, reject the imports
the specification blocks (rule 16), and list the tools. Reads the source on stdin, writes one
JSON object on stdout: {"problems": [{"construct", "line", "message"}], "tools": [...]}.
Run as `python3 -I -S validate_skill.py`; nothing of the skill is executed.

Rejected, exactly rule 16's modules (and their submodules, e.g. ctypes.util):
  import X / from X import … / __import__('X') / importlib.import_module('X') /
  importlib.util.find_spec('X') / runpy.run_module('X'), under any alias
Also rejected, because they would make that list unenforceable: __import__ and
importlib.import_module with a module name that is not a string literal, and the import
functions taken as values (`imp = __import__`, getattr(builtins, '__import__')); exec/eval/
compile of a string literal are checked like the module itself, and of anything else
rejected (the code could import a blocked module). Other modules are not rejected here: the
isolated host is what keeps a skill from the rest of the machine.
"""
import ast
import json
import sys

BLOCKED = ("subprocess", "ctypes", "winreg", "msvcrt", "pty", "tty", "termios", "fcntl")
# Module loaders taking a module name: importlib.import_module, importlib.util.find_spec (then
# module_from_spec/exec_module), runpy.run_module, and __import__ itself.
IMPORT_FUNCTIONS = ("__import__", "import_module", "find_spec", "run_module")
CODE_RUNNERS = ("exec", "eval", "compile")
JSON_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
              "list": "array", "dict": "object"}


def blocked(module):
    return module.split(".")[0] in BLOCKED


def literal(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def callee_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class Checker(ast.NodeVisitor):
    def __init__(self, aliases, line_offset=0):
        self.aliases = aliases
        self.problems = []
        self.line_offset = line_offset
        self.callees = set()

    def report(self, node, construct, message):
        line = getattr(node, "lineno", 1) + self.line_offset
        self.problems.append({"construct": construct, "line": line, "message": message})

    def check_module(self, node, module, construct):
        if blocked(module):
            self.report(node, construct, f"{module.split('.')[0]} is blocked in a skill (rule 16)")

    def visit_Import(self, node):
        for alias in node.names:
            self.check_module(node, alias.name, f"import {alias.name}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        # A relative import (from . import x) names a module of the skill's own package.
        if node.level == 0 and node.module:
            self.check_module(node, node.module, f"from {node.module} import")
        self.generic_visit(node)

    def visit_Call(self, node):
        name = callee_name(node.func)
        if isinstance(node.func, ast.Name):
            name = self.aliases.get(name, name)
        self.callees.add(id(node.func))
        first = node.args[0] if node.args else None
        if name in IMPORT_FUNCTIONS:
            module = literal(first) if first is not None else None
            if module is None:
                self.report(node, f"{name}(<expression>)",
                            f"{name}() must name its module with a string literal, so it can be checked")
            elif self.relative_import(node, name, module):
                self.report(node, f"{name}('{module}', …)",
                            f"{name}() may only import by absolute name, so the module can be checked")
            else:
                self.check_module(node, module, f"{name}('{module}')")
        elif name in CODE_RUNNERS and isinstance(node.func, ast.Name):
            code = literal(first) if first is not None else None
            if code is None:
                self.report(node, f"{name}(<expression>)",
                            f"{name}() may only run a string literal, which is checked like the skill")
            else:
                self.check_code(node, code)
        elif name == "getattr" and len(node.args) >= 2:
            attribute = literal(node.args[1])
            if attribute is None and self.is_builtins(node.args[0]):
                self.report(node, "getattr(builtins, <expression>)",
                            "builtins may only be read by a literal name: the name could be __import__")
            elif attribute in IMPORT_FUNCTIONS + CODE_RUNNERS:
                self.report(node, f"getattr(…, '{attribute}')",
                            f"{attribute} may only be called directly, with a string literal")
        self.generic_visit(node)

    @staticmethod
    def relative_import(node, name, module):
        """import_module('.util', 'ctypes') and __import__(…, level=1) import relative to a
        package given as an argument: that package could be a blocked one."""
        if name == "__import__":
            level = node.args[4] if len(node.args) > 4 else next(
                (keyword.value for keyword in node.keywords if keyword.arg == "level"), None)
            return level is not None and not (isinstance(level, ast.Constant) and level.value == 0)
        return module.startswith(".")

    def check_code(self, node, code):
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError):
            return  # it fails the same way when run
        inner = Checker(self.aliases, getattr(node, "lineno", 1) - 1 + self.line_offset)
        inner.visit(tree)
        self.problems.extend(inner.problems)

    def visit_Name(self, node):
        if node.id in IMPORT_FUNCTIONS + CODE_RUNNERS and id(node) not in self.callees:
            self.report(node, f"{node.id} (as a value)",
                        f"{node.id} may only be called directly, with a string literal")

    def visit_Subscript(self, node):
        key = literal(node.slice)
        if key in IMPORT_FUNCTIONS + CODE_RUNNERS:
            self.report(node, f"['{key}']", f"{key} may only be called directly, with a string literal")
        self.generic_visit(node)

    def is_builtins(self, node):
        """builtins, __builtins__, an alias of them, or __import__('builtins')."""
        if isinstance(node, ast.Name):
            return node.id in ("builtins", "__builtins__") or self.aliases.get(node.id) == "builtins"
        if isinstance(node, ast.Call) and node.args:
            name = callee_name(node.func)
            name = self.aliases.get(name, name) if isinstance(node.func, ast.Name) else name
            return name in IMPORT_FUNCTIONS and literal(node.args[0]) == "builtins"
        return False

    def visit_Attribute(self, node):
        if self.is_builtins(node.value) and node.attr in CODE_RUNNERS:
            owner = node.value.id if isinstance(node.value, ast.Name) else "builtins"
            self.report(node, f"{owner}.{node.attr}",
                        f"{node.attr} may only be called directly, with a string literal")
        elif node.attr in IMPORT_FUNCTIONS and id(node) not in self.callees:
            self.report(node, f"{node.attr} (as a value)",
                        f"{node.attr} may only be called directly, with a string literal")
        self.generic_visit(node)


def aliases_of(tree):
    """Other names for the loaders and code runners: `from importlib import import_module as im`."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname and alias.name in IMPORT_FUNCTIONS + CODE_RUNNERS:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "builtins" and alias.asname:
                    aliases[alias.asname] = "builtins"
    return aliases


def annotation_type(annotation):
    if annotation is None:
        return None
    base = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return JSON_TYPES.get(callee_name(base) or "")


def tool_spec(function, skip_self=False):
    doc = ast.get_docstring(function) or ""
    description = doc.split("\n\n")[0].replace("\n", " ").strip() or function.name
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults))
    if skip_self and pairs:
        pairs = pairs[1:]
    properties, required = {}, []
    for argument, default in pairs:
        schema = {}
        kind = annotation_type(argument.annotation)
        if kind:
            schema["type"] = kind
        properties[argument.arg] = schema
        if default is None:
            required.append(argument.arg)
    return {"name": function.name, "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required}}


def extends_plugin(node):
    return any(callee_name(base) == "Plugin" for base in node.bases)


# The runtime serves the plain methods of a Plugin subclass on its one instance; a method these
# decorators turn into something else (a static or class helper, a property) is not a tool.
NOT_SERVED = {"staticmethod", "classmethod", "property", "cached_property",
              "setter", "getter", "deleter"}


def not_served(decorator):
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr in NOT_SERVED
    return isinstance(target, ast.Name) and target.id in NOT_SERVED


def tools_of(tree):
    """Top-level def/async def not starting with _, then the methods of a Plugin subclass."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    tools = [tool_spec(node) for node in tree.body
             if isinstance(node, functions) and not node.name.startswith("_")]
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and extends_plugin(node):
            for member in node.body:
                if isinstance(member, functions) and not member.name.startswith("_") and not any(
                        not_served(d) for d in member.decorator_list):
                    tools.append(tool_spec(member, skip_self=True))
    # As the runtime serves them: the first of a name wins (a module function over a method).
    seen = set()
    return [tool for tool in tools if not (tool["name"] in seen or seen.add(tool["name"]))]


def capabilities_of(tree):
    """The top-level `CAPABILITIES = [...]` literal: its value (a list, or None when it is not a
    literal list) and line; None when the module declares nothing. Checked by the gateway."""
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "CAPABILITIES" for target in targets):
                try:
                    value = ast.literal_eval(node.value) if node.value is not None else None
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    value = None
                if isinstance(value, tuple):
                    value = list(value)
                if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                    value = None
                return {"value": value, "line": node.lineno}
    return None


def validate(source):
    try:
        tree = ast.parse(source, filename="skill.py")
    except SyntaxError as error:
        return {"problems": [{"construct": "syntax error", "line": error.lineno or 1,
                              "message": f"{error.msg}"}], "tools": []}
    except (ValueError, RecursionError, MemoryError) as error:
        return {"problems": [{"construct": "syntax error", "line": 1,
                              "message": f"the module cannot be parsed: {type(error).__name__}"}],
                "tools": []}
    checker = Checker(aliases_of(tree))
    try:
        checker.visit(tree)
        tools = tools_of(tree)
    except RecursionError:
        return {"problems": [{"construct": "nesting", "line": 1,
                              "message": "the module is nested too deeply to check"}], "tools": []}
    checker.problems.sort(key=lambda problem: problem["line"])
    return {"problems": checker.problems, "tools": tools, "capabilities": capabilities_of(tree)}


if __name__ == "__main__":
    # utf-8-sig: a byte-order mark is dropped, as Python does when it loads the file.
    text = sys.stdin.buffer.read().decode("utf-8-sig", errors="replace")
    sys.stdout.write(json.dumps(validate(text)))
