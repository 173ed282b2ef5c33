"""The sandbox's isolation from the operating system: bubblewrap namespaces and seccomp.

A coded handler's worker (`sandbox_worker.py`) runs under `bwrap` (bubblewrap, the
`COMPOWORLD_BWRAP` setting, default `/usr/bin/bwrap`) in fresh network, pid, ipc, uts,
cgroup and mount namespaces, `--die-with-parent` and `--new-session`. Its root is an empty
read-only tmpfs holding, read-only at their own paths, only the interpreter, the standard
library, the shared libraries they load (found with `ldd`), the worker's four repository
files and the site-packages folders of its dependencies (orjson, fastjsonschema, jsonschema
and what jsonschema imports): no /proc, /etc, /dev, /tmp or home, nothing writable.

Dropping privileges. As root (CI and this project's machines) no user namespace is made:
bwrap keeps only CAP_SETUID and CAP_SETGID, and the worker's trusted boot switches to uid and
gid 65534 with no supplementary groups (which clears every capability) before it reads any
input. As any other user, bwrap maps the caller to 65534 in a new user namespace
(`--unshare-user --disable-userns`), which needs unprivileged user namespaces. bwrap sets
no_new_privs either way. `setpriv` was not used: the uid change clears the parent-death
signal that `--die-with-parent` gives the sandboxed process.

Seccomp. The filter is built here with pyseccomp (libseccomp) and handed to the worker as a
BPF program; the worker loads it with prctl after its boot and before it reads the
handler's source. Default allow; these kill the whole worker (SIGSYS): execve/execveat,
every fork/vfork/clone/clone3 (threads included: a handler needs none), sockets, signals to
any process and pidfds, ptrace and process_vm_*, priority/affinity/scheduler changes,
rlimit changes other than the worker's own CPU limit, signal dispositions, namespaces,
mounts, keyrings, bpf, io_uring, and every file change: open/openat with a write, create,
truncate or append flag, openat2 (its flags sit behind a pointer), mknod, link, unlink,
rename, mkdir, chmod, chown, truncate, xattrs, utimes. Killing rather than EPERM makes the
violation impossible to hide: the parent sees the worker die by SIGSYS and records
`forbidden_operation`.

`sandbox_unavailable()` says why this machine cannot sandbox (no bwrap, namespaces refused,
no libseccomp, a layer that did not hold in a trial worker), or None; nothing degrades
silently: `require_sandbox()` raises `SandboxUnavailable` with that sentence.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["BWRAP_SETTING", "SANDBOX_GID", "SANDBOX_UID", "SandboxUnavailable", "bwrap_path",
           "require_sandbox", "sandbox_unavailable", "seccomp_program", "worker_command"]

BWRAP_SETTING = "COMPOWORLD_BWRAP"
SANDBOX_UID = SANDBOX_GID = 65534  # nobody/nogroup
_REPO = Path(__file__).resolve().parents[2]
# The repository files the worker imports (typed state and its errors, world/state.py).
_REPO_FILES = ("compoworld/__init__.py", "compoworld/services/__init__.py",
               "compoworld/world/__init__.py", "compoworld/world/state.py",
               "compoworld/services/sandbox_worker.py")
_DEPENDENCIES = ("orjson", "fastjsonschema", "jsonschema")
BOOT = ("import sys; sys.path[:0] = sys.argv[2:]; "
        "from compoworld.services.sandbox_worker import main; main(sys.argv[1])")

_KILLED = (
    "execve", "execveat", "fork", "vfork", "clone", "clone3",
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open",
    "pidfd_send_signal", "pidfd_getfd", "ptrace", "process_vm_readv", "process_vm_writev",
    "process_madvise", "kcmp", "setpriority", "sched_setaffinity", "sched_setscheduler",
    "sched_setparam", "sched_setattr", "ioprio_set",
    "rt_sigaction", "prctl", "seccomp", "personality", "unshare", "setns", "mount", "umount2",
    "pivot_root", "chroot", "fsopen", "fsmount", "fsconfig", "fspick", "move_mount",
    "open_tree", "mount_setattr", "add_key", "request_key", "keyctl", "bpf",
    "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "memfd_create", "open_by_handle_at", "name_to_handle_at", "fanotify_init", "quotactl",
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    "setfsuid", "setfsgid", "capset", "acct", "swapon", "swapoff", "reboot", "kexec_load",
    "init_module", "finit_module", "delete_module", "syslog", "iopl", "ioperm",
    "migrate_pages", "move_pages", "mbind", "set_mempolicy",
    "openat2", "creat", "mknod", "mknodat", "link", "linkat", "symlink", "symlinkat",
    "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
    "truncate", "ftruncate", "fallocate", "utime", "utimes", "utimensat", "futimesat",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
)
# Flags that make an open a write (O_TMPFILE's own bit: it always comes with O_DIRECTORY).
_WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND, 0o20000000)
_OPEN_FLAGS_ARG = {"open": 1, "openat": 2}


class SandboxUnavailable(RuntimeError):
    """This machine cannot run coded handlers isolated; the message says what to install."""


def bwrap_path() -> str:
    """The bubblewrap binary: `COMPOWORLD_BWRAP`, default `/usr/bin/bwrap`."""
    return os.environ.get(BWRAP_SETTING) or "/usr/bin/bwrap"


@functools.cache
def seccomp_program() -> bytes:
    """The worker's seccomp filter as a BPF program (see the module doc)."""
    import pyseccomp as seccomp  # raises RuntimeError itself when libseccomp is missing

    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    rules.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)  # no i386/x32 side door
    for name in _KILLED:
        try:
            rules.add_rule(seccomp.KILL_PROCESS, name)
        except OSError:  # a syscall this architecture does not have
            continue
    # Only the worker's own CPU limit may change (it re-arms it per call: see the worker).
    for name, arg, value in (("prlimit64", 0, 0), ("prlimit64", 1, resource.RLIMIT_CPU),
                             ("setrlimit", 0, resource.RLIMIT_CPU)):
        rules.add_rule(seccomp.KILL_PROCESS, name, seccomp.Arg(arg, seccomp.NE, value))
    for name, arg in _OPEN_FLAGS_ARG.items():
        for flag in _WRITE_FLAGS:
            try:
                rules.add_rule(seccomp.KILL_PROCESS, name, seccomp.Arg(arg, seccomp.MASKED_EQ,
                                                                      flag, flag))
            except OSError:
                continue
    read, write = os.pipe()
    try:
        with os.fdopen(write, "wb") as sink:
            rules.export_bpf(sink)
        with os.fdopen(read, "rb") as source:
            return source.read()
    finally:
        for fd in (read, write):
            try:
                os.close(fd)
            except OSError:
                pass


def _interpreter() -> str:
    """The real interpreter binary (a venv's python is a symlink to it)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


@functools.cache
def _loaded_files() -> tuple[str, ...]:
    """The files of every module the worker loads, found by loading them in a plain
    interpreter (-I -S) with the worker's sys.path: what jsonschema (its fallback validator)
    pulls in changes between versions, and extension modules bring shared libraries."""
    roots = {str(Path(spec.origin).resolve().parents[1]) for name in _DEPENDENCIES
             if (spec := importlib.util.find_spec(name)) is not None and spec.origin}
    probe = ("import json, sys; sys.path[:0] = sys.argv[1:]; import jsonschema; "
             "from compoworld.services.sandbox_worker import preload; preload(); "
             "print(json.dumps([getattr(m, '__file__', None) for m in list(sys.modules.values())"
             "]))")
    out = subprocess.run([_interpreter(), "-I", "-S", "-B", "-c", probe, str(_REPO),
                          *sorted(roots)], capture_output=True, text=True, timeout=60,
                         check=True).stdout
    return tuple(sorted({os.path.realpath(f) for f in json.loads(out) if f}))


def _site_packages(files: tuple[str, ...], inside: tuple[str, ...]) -> tuple[str, ...]:
    """The top-level site-packages folders (or modules) that `files` come from."""
    tops = set()
    for file in files:
        parts = Path(file).parts
        if "site-packages" in parts and not file.startswith(inside):
            at = parts.index("site-packages")
            tops.add(str(Path(*parts[:at + 2])))
    return tuple(sorted(tops))


_LDD_PATH = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x")


def _libraries(objects: list[str], inside: tuple[str, ...]) -> tuple[str, ...]:
    """Shared libraries `objects` need, at the paths the dynamic loader looks them up (its
    own path, /lib64/ld-linux..., included)."""
    out = subprocess.run(["ldd", *objects], capture_output=True, text=True, timeout=60).stdout
    return tuple(sorted({path for path in _LDD_PATH.findall(out)
                         if not path.startswith(inside) and os.path.exists(path)}))


@functools.cache
def _mounts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(bwrap mount arguments, the worker's sys.path entries)."""
    stdlib = os.path.realpath(os.path.dirname(os.__file__))
    files = _loaded_files()
    packages = _site_packages(files, (stdlib,))
    extensions = [f for f in files if ".so" in Path(f).suffixes or f.endswith(".so")]
    binds = [_interpreter(), stdlib, *packages,
             *_libraries([_interpreter(), *extensions], (stdlib, *packages)),
             *(str(_REPO / name) for name in _REPO_FILES)]
    # bwrap makes missing parent folders mode 0700, which uid 65534 cannot enter.
    parents = sorted({str(parent) for path in binds for parent in Path(path).parents
                      if str(parent) != "/"}, key=lambda p: (p.count("/"), p))
    args: list[str] = []
    for folder in parents:
        args += ["--perms", "0755", "--dir", folder]
    for path in dict.fromkeys(binds):
        args += ["--ro-bind", path, path]
    sys_path = [str(_REPO), *sorted({str(Path(p).parent) for p in packages})]
    return tuple(args), tuple(sys_path)


def worker_command(settings: dict[str, Any], info_fd: int | None = None) -> list[str]:
    """The command line that starts one worker in the sandbox; bwrap writes the host pid of
    the worker's pid-namespace init and the namespace ids as JSON to `info_fd`."""
    mounts, sys_path = _mounts()
    if os.geteuid() == 0:  # the worker's boot drops to 65534 itself (see the module doc)
        users = ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        users = ["--unshare-user", "--disable-userns", "--uid", str(SANDBOX_UID),
                 "--gid", str(SANDBOX_GID)]
    settings = dict(settings, seccomp=seccomp_program().hex(), uid=SANDBOX_UID,
                    gid=SANDBOX_GID)
    return [bwrap_path(), "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session", *users,
            "--hostname", "sandbox", *mounts, "--remount-ro", "/", "--chdir", "/",
            *(["--info-fd", str(info_fd)] if info_fd is not None else []), "--",
            _interpreter(), "-I", "-S", "-B", "-c", BOOT, json.dumps(settings), *sys_path]


def sandbox_unavailable() -> str | None:
    """Why coded handlers cannot be isolated on this machine (one sentence), or None."""
    return _probe(bwrap_path())


def require_sandbox() -> None:
    """Raise `SandboxUnavailable` (with the reason) unless every layer works here."""
    reason = sandbox_unavailable()
    if reason is not None:
        raise SandboxUnavailable(reason)


@functools.cache
def _probe(bwrap: str) -> str | None:
    """Start one trial worker and check what it reports of itself (see `sandbox_worker`)."""
    if not (os.path.isfile(bwrap) and os.access(bwrap, os.X_OK)):
        return (f"the coder's sandbox needs bubblewrap at {bwrap}: install the Debian package "
                f"bubblewrap (make setup does it as root) or set {BWRAP_SETTING} to its path")
    try:
        seccomp_program()
    except (ImportError, RuntimeError, OSError) as error:
        return (f"the coder's sandbox needs libseccomp for its seccomp filter ({error}): "
                "install the Debian package libseccomp2 and the pinned pyseccomp")
    try:
        command = worker_command({"probe": True})
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        return f"the coder's sandbox could not list the files its worker needs: {error}"
    try:
        done = subprocess.run(command, capture_output=True, timeout=60, stdin=subprocess.DEVNULL,
                              env={})
    except (OSError, subprocess.SubprocessError) as error:
        return f"bubblewrap at {bwrap} could not start a sandboxed worker: {error}"
    try:
        report = json.loads(done.stdout.splitlines()[-1])
    except (ValueError, IndexError):
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        return (f"bubblewrap could not start a sandboxed worker here ({tail[0]}); it needs "
                "root or unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)")
    expected = {"uid": SANDBOX_UID, "gid": SANDBOX_GID, "groups": [], "no_new_privs": 1,
                "killed_by_seccomp": True, "host_folders": []}
    # The root may hold only the first folders of what is bound (a checkout under /tmp
    # brings a /tmp holding the path to its four files, nothing else of the host's /tmp).
    mounts, _ = _mounts()
    bound = {Path(path).parts[1] for flag, path in zip(mounts, mounts[1:], strict=False)
             if flag == "--ro-bind"}
    report |= {"killed_by_seccomp": done.returncode == 128 + signal.SIGSYS,
               "host_folders": sorted(set(report.get("root", [])) - bound)}
    wrong = {key: report.get(key) for key, value in expected.items() if report.get(key) != value}
    if wrong:
        return (f"a trial sandboxed worker did not hold every layer ({wrong}); coded tools "
                "cannot run safely on this machine")
    return None
