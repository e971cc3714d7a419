"""House style: no function in forumlab/ is longer than 80 lines.

A function is counted from its ``def`` line to its last line (decorators excluded, docstring
included); a nested function counts on its own and inside its parent. The one exception is a
numba kernel whose split would cost speed: it must be decorated with a numba decorator and say
why in a comment starting with ``# long kernel:`` within the 5 lines above its ``def`` or the
first lines of its body, so a reader sees the reason where the length is.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "forumlab"
MAX_LINES = 80
EXEMPTION = "# long kernel:"
# How many lines above the def, and into the body, may hold the exemption comment.
WINDOW = 5
NUMBA_DECORATORS = frozenset({
    "njit", "jit", "generated_jit", "overload", "overload_method", "overload_attribute",
    "register_jitable", "vectorize", "guvectorize", "cfunc", "stencil", "intrinsic",
})


def _decorator_name(node: ast.expr) -> str:
    """``njit`` for ``@njit``, ``@njit(cache=True)``, ``@numba.njit`` and ``@nb.njit(...)``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def is_numba_kernel(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a numba decorator compiles the function."""
    return any(_decorator_name(d) in NUMBA_DECORATORS for d in func.decorator_list)


def _first_code_line(func: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The line of the first statement after the docstring (the def line if there is none)."""
    body = func.body
    has_docstring = (isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                     and isinstance(body[0].value.value, str))
    if has_docstring:
        return body[1].lineno if len(body) > 1 else body[0].end_lineno
    return body[0].lineno


def has_exemption(func: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> bool:
    """Whether a ``# long kernel: <reason>`` comment sits near the def (1-based ``lineno``)."""
    start = max(func.lineno - WINDOW, 1)
    # Comments before the first statement are not in the AST, hence the look from the def on.
    end = _first_code_line(func) + WINDOW - 1
    for line in lines[start - 1:end]:
        text = line.strip()
        if text.startswith(EXEMPTION) and text[len(EXEMPTION):].strip():
            return True
    return False


def long_functions(source: str, name: str) -> list[str]:
    """Every function of one module's source over the limit that is not an exempt kernel."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source, filename=name)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        length = node.end_lineno - node.lineno + 1
        if length <= MAX_LINES:
            continue
        if is_numba_kernel(node) and has_exemption(node, lines):
            continue
        kind = "numba kernel without a '# long kernel:' reason" if is_numba_kernel(node) else "function"
        found.append(f"{name}:{node.lineno} {node.name}: {length} lines ({kind})")
    return found


def _check(source: str) -> list[str]:
    """long_functions on a sample module (for the tests of the checker itself)."""
    return long_functions(source, "sample.py")


def _function(name: str, lines: int, head: str = "") -> str:
    """Source of a function of exactly ``lines`` lines (def and body), after ``head``."""
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 1))
    return f"{head}def {name}():\n{body}"


def test_no_function_in_the_package_is_over_80_lines():
    found = [line for path in sorted(PACKAGE.rglob("*.py"))
             for line in long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, (f"{len(found)} function(s) over {MAX_LINES} lines; split them into named "
                       "steps (a numba kernel may instead say why with '# long kernel: <reason>'):\n"
                       + "\n".join(found))


def test_the_limit_is_80_lines_without_decorators():
    assert _check(_function("short", 80, head="@property\n@staticmethod\n")) == []
    found = _check(_function("long", 81))
    assert len(found) == 1 and "long: 81 lines (function)" in found[0]


def test_a_docstring_counts():
    source = 'def f():\n    """One.\n\n    Two.\n    """\n' + "".join(f"    x{i} = 1\n" for i in range(76))
    assert len(_check(source)) == 1


def test_a_kernel_is_exempt_only_with_a_reason():
    reason = "# long kernel: one loop, a split costs 8% (benchmarks/search.py)\n"
    assert _check(_function("k", 90, head=reason + "@njit(cache=True)\n")) == []
    assert _check(_function("k", 90, head=reason + "@numba.njit\n")) == []
    assert len(_check(_function("k", 90, head="# long kernel:\n@njit\n"))) == 1  # no reason
    assert len(_check(_function("k", 90, head="@njit\n"))) == 1
    assert len(_check(_function("f", 90, head=reason))) == 1  # not a kernel


def test_the_reason_may_open_the_body():
    source = ('@njit(cache=True)\ndef k():\n    """Doc."""\n'
              '    # long kernel: the loop shares its locals with every branch\n'
              + "".join(f"    x{i} = 1\n" for i in range(85)))
    assert _check(source) == []


def test_a_reason_far_above_does_not_count():
    source = ("# long kernel: too far away\n" + "\n" * 6 + "@njit\n"
              + "def k():\n" + "".join(f"    x{i} = 1\n" for i in range(85)))
    assert len(_check(source)) == 1
