"""The one-line message helpers of forumlab.core.errors."""
from forumlab.core.errors import error_line, exception_line, squeeze


def test_error_line_joins_the_lines_of_a_message():
    assert error_line("bad value\nsee --help") == "error: bad value see --help"
    assert error_line(ValueError("x")) == "error: x"


def test_exception_line_keeps_type_and_first_line_cut_at_300_characters():
    assert exception_line(RuntimeError("boom\ntraceback follows")) == "RuntimeError: boom"
    assert exception_line(KeyError()) == "KeyError:"
    assert exception_line(ValueError("v" * 1000)) == "ValueError: " + "v" * (300 - len("ValueError: "))


def test_squeeze_collapses_whitespace_and_marks_a_cut():
    assert squeeze("disk  I/O\n error") == "disk I/O error"
    assert squeeze("a" * 200, limit=10) == "aaaaaaa..."
    assert squeeze("a" * 10, limit=10) == "a" * 10
