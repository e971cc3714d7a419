"""Point numba's on-disk cache at a directory keyed by a hash of forumlab's compiled code.

numba re-validates a cached function only against its own file's timestamp, so a
generic search kernel cached before an engine it calls was edited would silently run
the old engine code. Keying the cache directory by the content of the modules that
compiled code can reach makes any such change start a fresh cache. Front ends (the
command line, the arena, reports, adapters) hold no compiled code, so editing them
keeps the cache: :func:`compiled_sources` lists what the key covers.

numba itself is not imported here: ``NUMBA_CACHE_DIR`` is set in the environment,
which numba reads when it is first imported (and worker processes inherit), so
``import forumlab`` stays cheap. A user's explicit ``NUMBA_CACHE_DIR`` wins.
"""
import hashlib
import os
import sys
from pathlib import Path

# Packages whose modules compiled code is made of or calls: every module there is keyed,
# numba in it or not (a constants table without numba is frozen into the kernels that
# read it).
COMPILED_PACKAGES = ("core", "engines", "search")
# Elsewhere, a module is keyed when it defines compiled functions of its own.
_COMPILING = (b"@njit", b"@jit", b"@vectorize", b"@overload", b"@generated_jit")


def compiled_sources(package: Path) -> list[Path]:
    """The modules of ``package`` that the cache key covers, sorted.

    Args:
        package: the ``forumlab`` package directory.

    Returns:
        Every ``.py`` file under :data:`COMPILED_PACKAGES`, and any other that
        decorates a function for numba.
    """
    keyed = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if parts[0] in COMPILED_PACKAGES or any(w in path.read_bytes() for w in _COMPILING):
            keyed.append(path)
    return keyed


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
