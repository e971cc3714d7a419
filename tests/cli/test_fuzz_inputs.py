"""Damaged inputs, generated from a fixed seed: game records and tournament files.

Each damaged file is fed to the command line in-process (click's CliRunner) and, for
records, to the API. The command must either succeed or fail cleanly: exit code 2 and
exactly one ``error:`` line on stderr, no traceback; a failed ``tournament run`` must not
leave a results file behind. The API must either succeed or raise a ForumlabError, never
a KeyError, TypeError, ValueError, RecursionError, ...

The cases are bounded (a fixed seed, about a hundred cases of small files) so that the
module runs in seconds and stays in the default suite.
"""
import json
import math
import random

import pytest
from click.testing import CliRunner

import forumlab
from forumlab.cli import main
from forumlab.core.errors import ForumlabError
from forumlab.core.record import Record, load_record
from forumlab.core.registry import create_game
from tests.deadline import deadline

SEED = 20261206
LIMIT = 120  # seconds per case: far above what any case takes, so a hang fails instead of blocking

# Values of every JSON type, some of them extreme, to put where another type belongs.
ODD_VALUES = [None, True, False, 0, -1, 1.5, math.inf, -math.inf, math.nan, 10**30, -(10**30),
              2**63, "", "x", "\u0000", "\ud800", [], [1], {}, {"a": 1}, [[[]]], "9" * 5000]


def prompt(seconds: int = LIMIT):
    """Fail (instead of hanging) if the body takes longer than ``seconds``."""
    return deadline(seconds)


def assert_clean(result, what):
    """Success, or exit 2 with exactly one 'error:' line and no traceback."""
    assert not isinstance(result.exception, TimeoutError), what
    if result.exit_code == 0:
        return
    assert result.exit_code == 2, (what, result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), (what, result.exception)
    assert "Traceback" not in result.output, what
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], (what, result.stderr)


def assert_api_clean(what, call, *args):
    """``call(*args)`` succeeds, or raises a ForumlabError (the API's documented errors)."""
    try:
        with prompt():
            call(*args)
    except ForumlabError:
        pass
    except TimeoutError:
        pytest.fail(f"{what}: still running after {LIMIT} s")
    except Exception as exc:  # anything else is a bug the fuzzer found
        pytest.fail(f"{what}: {type(exc).__name__}: {exc}")


# ------------------------------------------------------------------ game records
def base_records() -> list[dict]:
    """A valid record of each of two games, with a few moves played (seeded)."""
    out = []
    for name, config in (("forum-romanum", {"players": 3, "max_rounds": 4}), ("forma", {"players": 2})):
        game = create_game(name, config)
        state = game.new_state(5)
        rng = random.Random(SEED)
        for _ in range(4):
            if state.is_terminal:
                break
            state.play(int(rng.choice(state.legal_moves().tolist())))
        record = Record.from_state(state, agents=[{"label": "random", "spec": "random", "seed": i}
                                                  for i in range(game.players)])
        out.append(record.to_json())
    return out


def nest(depth: int, inner=0):
    value = inner
    for _ in range(depth):
        value = [value]
    return value


def record_cases() -> list[tuple[str, bytes]]:
    """(name, file bytes) of every damaged record, the same on every run."""
    rng = random.Random(SEED)
    cases = []
    for base in base_records():
        good = json.dumps(base, indent=1).encode()
        game = base["game"]
        cases.append((f"{game}: unchanged", good))
        for _ in range(6):  # a flipped byte anywhere
            data = bytearray(good)
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
            cases.append((f"{game}: byte {at} flipped", bytes(data)))
        for _ in range(3):  # cut short
            at = rng.randrange(len(good))
            cases.append((f"{game}: cut at {at}", good[:at]))
        for key in ("format", "game", "config", "seed", "setup", "moves", "agents", "result"):
            for value in rng.sample(ODD_VALUES, 2):
                cases.append((f"{game}: {key}={value!r:.20}", _dump({**base, key: value})))
        moves = base["moves"]
        for label, changed in (
            ("a move of another type", [*moves[:-1], 7]),
            ("a move that is nonsense", [*moves, "zz99!"]),
            ("a move repeated", [*moves, moves[-1]]),
            ("a very long move", ["a" * 100_000]),
            ("many moves after an illegal one", ["?"] * 50_000),
        ):
            cases.append((f"{game}: {label}", _dump({**base, "moves": changed})))
        for label, config in (
            ("players huge", {**base["config"], "players": 10**9}),
            ("players a list", {**base["config"], "players": [3]}),
            ("unknown option", {**base["config"], "bogus": 1}),
        ):
            cases.append((f"{game}: config {label}", _dump({**base, "config": config})))
        for seed in (2**63, -(2**63) - 1, 10**100):
            cases.append((f"{game}: seed {seed:.3g}", _dump({**base, "seed": seed})))
        for label, result in (
            ("fault seat out of range", {"faults": [{"seat": 99}], "ranks": [1, 2, 3]}),
            ("fault seat huge", {"faults": [{"seat": 10**30}]}),
            ("faults not a list", {"faults": "x"}),
            ("fault not an object", {"faults": [3]}),
            ("scores of another type", {"scores": {"a": 1}}),
            ("termination a number", {"termination": 5}),
            ("termination end", {"termination": "end"}),
        ):
            cases.append((f"{game}: result {label}", _dump({**base, "result": result})))
        cases.append((f"{game}: agents with odd fields",
                      _dump({**base, "agents": [{"label": [1]}, {"spec": None}, {}]})))
        cases.append((f"{game}: setup unknown option", _dump({**base, "setup": {"bogus": 1}})))
        cases.append((f"{game}: setup odd value", _dump({**base, "setup": {"players": "x"}})))
    base = base_records()[1]  # forma: a setup the seed drew
    for key, value in base.get("setup", {}).items():
        for odd in (None, 5, "zz99", [value] if not isinstance(value, list) else value[:1] * 99):
            cases.append((f"forma: setup {key}={odd!r:.20}", _dump({**base, "setup": {**base["setup"], key: odd}})))
    cases += [
        ("unknown game", _dump({**base, "game": "chess"})),
        ("game name with a NUL", _dump({**base, "game": "forma\u0000"})),
        ("not UTF-8", _dump(base).replace(b'"forma"', '"form\u00e4"'.encode("latin-1"))),
        ("UTF-8 with a BOM", b"\xef\xbb\xbf" + _dump(base)),
        ("UTF-16", json.dumps(base).encode("utf-16")),
        ("deep nesting in result", _dump({**base, "result": {"x": nest(100_000)}}, raw=True)),
        ("deep nesting at the top", b"[" * 200_000 + b"]" * 200_000),
        ("a huge integer", b'{"format": "forumlab-record/1", "game": "forma", "seed": ' + b"9" * 10_000 + b', "moves": []}'),
        ("two records", _dump(base) + b"\n" + _dump(base)),
        ("empty file", b""),
        ("a JSON array", b"[]"),
        ("a JSON string", b'"forma"'),
        ("NaN as a seed", b'{"format": "forumlab-record/1", "game": "forma", "seed": NaN, "moves": []}'),
    ]
    return cases


def _dump(data, raw: bool = False) -> bytes:
    if raw:  # too deep for json.dumps: build the text by hand
        inner = data["result"]["x"]
        depth = 0
        while isinstance(inner, list):
            inner, depth = inner[0], depth + 1
        head = json.dumps({k: v for k, v in data.items() if k != "result"})[:-1]
        return (head + ', "result": {"x": ' + "[" * depth + "0" + "]" * depth + "}}").encode()
    return json.dumps(data, allow_nan=True).encode("utf-8", errors="surrogatepass")


RECORD_CASES = record_cases()


def test_the_record_cases_are_bounded():
    assert 60 <= len(RECORD_CASES) <= 130
    assert len({name for name, _ in RECORD_CASES}) == len(RECORD_CASES)


@pytest.mark.parametrize("index", range(0, len(RECORD_CASES), 1))
def test_damaged_record(tmp_path, index):
    name, data = RECORD_CASES[index]
    path = tmp_path / "record.json"
    path.write_bytes(data)
    with prompt():
        result = CliRunner().invoke(main, ["replay", str(path)])
    assert_clean(result, name)
    assert_api_clean(f"load_record: {name}", load_record, path)
    assert_api_clean(f"forumlab.replay(path): {name}", forumlab.replay, path)
    try:
        decoded = json.loads(data)
    except (ValueError, RecursionError):
        return
    assert_api_clean(f"forumlab.replay(dict): {name}", forumlab.replay, decoded)


FIELDS = ("game", "config", "seed", "moves", "setup", "agents", "result", "extra")


@pytest.mark.parametrize("field", FIELDS)
def test_a_record_object_with_odd_fields(field):
    """A Record built in Python (not read from a file) with a field of the wrong type."""
    rng = random.Random(f"{SEED}-{field}")
    base = Record.from_json(base_records()[0])
    for value in rng.sample(ODD_VALUES, 6):
        record = Record(**{**base.__dict__, field: value})
        assert_api_clean(f"Record({field}={value!r:.20})", forumlab.replay, record)
    for value in rng.sample(ODD_VALUES, 4):
        assert_api_clean(f"forumlab.replay({value!r:.20})", forumlab.replay, value)


# ------------------------------------------------------------------ tournament files
GOOD_TOML = {
    "game": "forum-romanum",
    "config": {"players": 2, "max_rounds": 1},
    "games_per_lineup": 1,
    "seed": 3,
    "agents": [{"spec": "random", "label": "a"}, {"spec": "random(seed=1)", "label": "b"}],
}
TOML_KEYS = ("game", "config", "agents", "format", "candidate", "games_per_lineup", "rotations",
             "seed", "move_time", "hard_limit", "fault_policy", "sprt")


class Raw(str):
    """TOML text written as it is (dates and times, which JSON has not)."""


def toml_value(value) -> str:
    """A value in TOML syntax (inline tables and arrays)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            return "nan"
        if isinstance(value, float) and math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\\ud800", "\\uFFFD")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def toml_text(data: dict) -> bytes:
    lines = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items() if v is not None]
    return ("\n".join(lines) + "\n").encode("utf-8", errors="surrogatepass")


def toml_cases() -> list[tuple[str, bytes]]:
    rng = random.Random(SEED + 1)
    good = toml_text(GOOD_TOML)
    cases = [("unchanged", good)]
    for _ in range(6):
        data = bytearray(good)
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
        cases.append((f"byte {at} flipped", bytes(data)))
    for _ in range(3):
        at = rng.randrange(len(good))
        cases.append((f"cut at {at}", good[:at]))
    toml_odd = [v for v in ODD_VALUES if v is not None and v != "\u0000"]
    for key in TOML_KEYS:
        for value in rng.sample(toml_odd, 2):
            cases.append((f"{key}={value!r:.20}", toml_text({**GOOD_TOML, key: value})))
    cases += [
        ("unknown game", toml_text({**GOOD_TOML, "game": "chess"})),
        ("unknown field", toml_text({**GOOD_TOML, "bogus": 1})),
        ("agents without spec", toml_text({**GOOD_TOML, "agents": [{"label": "a"}, {"label": "b"}]})),
        ("agent spec unknown", toml_text({**GOOD_TOML, "agents": ["nosuchagent", "random"]})),
        ("agent spec malformed", toml_text({**GOOD_TOML, "agents": ["random(", "random"]})),
        ("agent spec odd parameter", toml_text({**GOOD_TOML, "agents": ["random(seed=[1])", "random"]})),
        ("agent label odd", toml_text({**GOOD_TOML, "agents": [{"spec": "random", "label": 5}, "greedy"]})),
        ("same label twice", toml_text({**GOOD_TOML, "agents": [{"spec": "random", "label": "a"},
                                                               {"spec": "greedy", "label": "a"}]})),
        ("games huge", toml_text({**GOOD_TOML, "games_per_lineup": 10**12})),
        ("players huge", toml_text({**GOOD_TOML, "config": {"players": 10**12}})),
        ("config option unknown", toml_text({**GOOD_TOML, "config": {"players": 2, "bogus": [1]}})),
        ("gauntlet without candidate", toml_text({**GOOD_TOML, "format": "gauntlet"})),
        ("gauntlet candidate unknown", toml_text({**GOOD_TOML, "format": "gauntlet", "candidate": "zz"})),
        ("sprt odd", toml_text({**GOOD_TOML, "format": "gauntlet", "candidate": "a",
                                "sprt": {"elo0": "x", "elo1": [1]}})),
        ("sprt inf", toml_text({**GOOD_TOML, "format": "gauntlet", "candidate": "a",
                                "sprt": {"elo0": 0, "elo1": math.inf}})),
        ("game a date", toml_text({**GOOD_TOML, "game": Raw("1979-05-27")})),
        ("players a date-time", toml_text({**GOOD_TOML, "config": {"players": Raw("1979-05-27T07:32:00Z")}})),
        ("max_rounds a time", toml_text({**GOOD_TOML, "config": {"players": 2, "max_rounds": Raw("07:32:00")}})),
        ("agent spec a date", toml_text({**GOOD_TOML, "agents": [{"spec": Raw("1979-05-27")}, "random"]})),
        ("not UTF-8", good.replace(b"forum-romanum", "forum-rom\u00e4num".encode("latin-1"))),
        ("deep nesting", b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"),
        ("a huge integer", b"seed = " + b"9" * 10_000 + b"\n"),
        ("not TOML at all", b"\x00\x01\x02{}"),
        ("empty file", b""),
    ]
    return cases


TOML_CASES = toml_cases()


def test_the_toml_cases_are_bounded():
    assert 40 <= len(TOML_CASES) <= 120
    assert len({name for name, _ in TOML_CASES}) == len(TOML_CASES)


@pytest.mark.parametrize("index", range(len(TOML_CASES)))
def test_damaged_tournament_file(tmp_path, index):
    name, data = TOML_CASES[index]
    path = tmp_path / "t.toml"
    path.write_bytes(data)
    db = tmp_path / "results.db"
    with prompt():
        result = CliRunner().invoke(main, ["tournament", "run", "--config", str(path), "--db", str(db),
                                           "--workers", "1", "--no-progress"])
    assert_clean(result, name)
    if result.exit_code != 0:
        assert not db.exists(), f"{name}: a failed run left {db.name} behind"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"], name
