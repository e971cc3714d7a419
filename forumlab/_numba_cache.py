"""Point numba's on-disk cache at a directory keyed by a hash of forumlab's sources.

numba re-validates a cached function only against its own file's timestamp, so a
generic search kernel cached before an engine it calls was edited would silently
run the old engine code. Keying the cache directory by the content of every module
makes any source change start a fresh cache. A user's explicit NUMBA_CACHE_DIR wins.
"""
import hashlib
import os
from pathlib import Path


def configure() -> None:
    """Set numba's cache directory unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    package = Path(__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    cache_dir = base / "forumlab" / "numba" / digest.hexdigest()
    import numba

    numba.config.CACHE_DIR = str(cache_dir)
