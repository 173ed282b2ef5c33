"""Hostile handler snippets and process checks shared by the sandbox and coder tests.

`DISARM` is the review's escape: from the `_wrap_close` class it reaches the real `os`,
`sys` and (through `_imp.create_builtin('gc')`) the audit hook, and switches the hook off
(its code swapped for a no-op with the same closure). Against a sandbox whose boundary is that
hook, whatever follows `DISARM` runs as the worker's user; the OS layers must stop it.
"""

from __future__ import annotations

import os
from pathlib import Path

WORKER_MODULE = "compoworld.services.sandbox_worker"
WRAP_CLOSE = ("[c for c in ().__class__.__base__.__subclasses__() "
              "if c.__name__ == '_wrap_close'][0].__init__.__globals__")
REAL_BUILTINS = "ToolError.__init__.__globals__['__builtins__']"
DISARM = f"""
    osg = {WRAP_CLOSE}
    sys_ = osg['sys']
    B = {REAL_BUILTINS}
    gc = sys_.modules['_imp'].create_builtin(type('S', (), {{'name': 'gc'}})())
    worker = sys_.modules['{WORKER_MODULE}']
    worker._REFUSED_EVENTS = ()
    for hook in [f for f in gc.get_objects() if type(f).__name__ == 'function'
                 and f.__code__.co_name == 'hook' and f.__module__ == worker.__name__]:
        names = ', '.join(hook.__code__.co_freevars)
        scope = {{}}
        B['exec'](f"def outer({{names}}):\\n    def hook(event, args):\\n        ({{names}},)"
                  "\\n    return hook", scope)
        hook.__code__ = scope['outer'](*hook.__code__.co_freevars).__code__  # a no-op hook
    os = sys_.modules['os']
"""


def disarmed(body: str) -> str:
    """A handler that disarms the audit hook, then runs `body` (indented 4 spaces, with `os`,
    `sys_`, `B` (the real builtins) and `arguments` at hand)."""
    return f"def handler(state, arguments):\n{DISARM}\n{body}\n    return 'done'\n"


def sandbox_processes(namespaces: set[int]) -> list[int]:
    """Processes left running by sandboxes: descendants of this process running the worker,
    and any process in one of `namespaces` (pid namespaces the handlers' workers ran in)."""
    me, parents, found = os.getpid(), {}, []
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            stat = (entry / "stat").read_text().rpartition(")")[2].split()
            if stat[0] == "Z":  # exited: bwrap's monitor may leave the init for pid 1 to reap
                continue
            parents[pid] = int(stat[1])
            commands[pid] = (entry / "cmdline").read_bytes()
            namespace = int(os.readlink(entry / "ns" / "pid").strip("pid:[]"))
        except (OSError, ValueError):
            continue
        if namespace in namespaces:
            found.append(pid)
    for pid, command in commands.items():
        if b"sandbox_worker" not in command:
            continue
        ancestor = parents.get(pid)
        while ancestor not in (None, 0, 1, me):
            ancestor = parents.get(ancestor)
        if ancestor == me:
            found.append(pid)
    return sorted(set(found))
