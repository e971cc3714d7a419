"""Point numba's on-disk cache at a directory keyed by a hash of forumlab's compiled code.

numba re-validates a cached function only against its own file's timestamp, so a
generic search kernel cached before an engine it calls was edited would silently run
the old engine code. Keying the cache directory by the content of the modules that
compiled code can reach makes any such change start a fresh cache. Front ends (the
command line, the arena, reports, adapters, the games' facades) hold no compiled code
and no compiled code imports them, so editing them keeps the cache:
:func:`compiled_sources` lists what the key covers.

numba itself is not imported here: ``NUMBA_CACHE_DIR`` is set in the environment,
which numba reads when it is first imported (and worker processes inherit). Hashing
the sources costs a tenth of a second, which a command that compiles nothing (listing
games, ``--help``, ratings) should not pay, so ``import forumlab`` only calls
:func:`configure_before_numba`: the directory is set at the first import of numba in
the process, whichever module imports it, and before numba reads its configuration.
A user's explicit ``NUMBA_CACHE_DIR`` wins.
"""
import hashlib
import os
import sys
from pathlib import Path

# A module defines compiled code when it decorates a function for numba.
_COMPILING = (b"@njit", b"@jit", b"@vectorize", b"@overload", b"@generated_jit")


def _module_path(package: Path, dotted: str) -> Path | None:
    """The file of the forumlab module ``dotted`` (``"engines.forma.layout"``), or None."""
    base = package.joinpath(*dotted.split(".")) if dotted else package
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_modules(package: Path, path: Path) -> set[Path]:
    """The forumlab modules that ``path`` imports (absolute or relative imports; for
    ``from X import name`` also ``X.name`` when that is a module)."""
    import ast

    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return set()
    here = path.relative_to(package).with_suffix("").parts
    if here[-1] == "__init__":
        here = here[:-1]
    else:
        here = here[:-1]  # the package holding the module
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name.split(".", 1)[1] for a in node.names if a.name.startswith("forumlab.")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            elif node.module and (node.module == "forumlab" or node.module.startswith("forumlab.")):
                base = node.module.partition(".")[2]
            else:
                continue
            names.append(base)
            names += [f"{base}.{a.name}" if base else a.name for a in node.names]
    found = {_module_path(package, n) for n in names}
    return {f for f in found if f is not None}


def compiled_sources(package: Path) -> list[Path]:
    """The modules of ``package`` that the cache key covers, sorted.

    Those that define compiled functions, and every forumlab module they import,
    directly or through each other: a constants table without numba is frozen into
    the kernels that read it, and a kernel inlines the kernels it calls. A module
    nothing compiled imports (the command line, the arena, reports, the games'
    facades) is not covered, so editing it keeps the compiled code.

    Args:
        package: the ``forumlab`` package directory.

    Returns:
        The covered ``.py`` files.
    """
    this = Path(__file__).resolve()  # names the decorators as data; compiles nothing
    roots = [p for p in package.rglob("*.py")
             if p.resolve() != this and any(w in p.read_bytes() for w in _COMPILING)]
    keyed, todo = set(), list(roots)
    while todo:
        path = todo.pop()
        if path in keyed:
            continue
        keyed.add(path)
        todo += _imported_modules(package, path) - keyed
    return sorted(keyed)


def cache_key(package: Path) -> str:
    """A 16-hex-digit hash of the names and contents of :func:`compiled_sources`."""
    digest = hashlib.blake2b(digest_size=8)
    for path in compiled_sources(package):
        digest.update(str(path.relative_to(package).as_posix()).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


# A cache directory of other sources unused this long is removed when a new one starts
# (each holds tens of MB of compiled code, and every source change starts a new one).
STALE_DAYS = 30


def prune_stale(root: Path, keep: Path, days: float = STALE_DAYS) -> list[Path]:
    """Remove the cache directories under ``root`` other than ``keep`` whose contents
    have not changed for ``days`` days (numba writes there whenever it compiles).

    Args:
        root: the directory holding one cache directory per key.
        keep: the directory in use.
        days: the age that makes a directory stale.

    Returns:
        The directories removed (a directory that cannot be removed is left).
    """
    import shutil
    import time

    cutoff = time.time() - days * 86400
    removed = []
    try:
        candidates = [d for d in root.iterdir() if d.is_dir() and d != keep and not d.is_symlink()]
    except OSError:
        return removed
    for d in candidates:
        try:
            newest = max([d.stat().st_mtime, *(f.stat().st_mtime for f in d.rglob("*"))])
        except OSError:
            continue
        if newest < cutoff:
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed


def configure() -> None:
    """Set numba's cache directory unless the user chose one; when that directory is
    new (the compiled code changed), remove stale ones (:func:`prune_stale`)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    package = Path(__file__).resolve().parent
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    cache_path = base / "forumlab" / "numba" / cache_key(package)
    if not cache_path.exists():
        prune_stale(cache_path.parent, cache_path)
    cache_dir = str(cache_path)
    os.environ["NUMBA_CACHE_DIR"] = cache_dir
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before forumlab: its config has read the environment already
        numba.config.CACHE_DIR = cache_dir


class _ConfigureBeforeNumba:
    """A finder on ``sys.meta_path`` that finds nothing: asked for ``numba`` (before any
    other finder, so before numba's first line runs), it sets the cache directory."""

    def find_spec(self, name, path=None, target=None):
        if name == "numba":
            configure()
        return None  # the regular finders import numba


def configure_before_numba() -> None:
    """Arrange for :func:`configure` to run when numba is first imported (at once if
    it already is), so that no import path reaches numba before its cache directory
    is set, and a process that never imports numba never hashes the sources."""
    if "numba" in sys.modules:
        configure()
    elif not any(isinstance(f, _ConfigureBeforeNumba) for f in sys.meta_path):
        # Stays in place (removing a finder while the import system walks the list
        # would skip the next one); after the first call configure() returns at once.
        sys.meta_path.insert(0, _ConfigureBeforeNumba())
