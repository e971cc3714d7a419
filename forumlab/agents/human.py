"""A person at the terminal as an agent: ``human``.

``forumlab play forum-romanum -a human,greedy,mcts --show`` seats a person at seat 0. At
each of its turns the agent prints the board (the picture of what its seat may see: the
game's ``render`` of the view it is handed, which in a hidden-information game is a
determinization from its seat, never the true state) and reads commands until one names a
legal move. Commands (``help`` lists them at the prompt):

- a move in the game's own notation (parsed by the game's parser, checked for legality);
  words in another order than the notation's (``take b3 c1`` for ``take c1 b3``) name the
  one legal move with those words, and the agent says how it read them;
- ``moves [PREFIX]`` (or ``?``): the legal moves, numbered, those starting with PREFIX
  only, a page at a time (``more`` shows the next page); a number plays the move listed
  with it (a text that is itself a legal move wins over a number);
- ``board`` (the whole board: in a game whose prompt shows a shorter picture, such as
  Forum Trajanum's, every seat's part of it), ``history`` (perfect-information games),
  ``rules`` (the game's short rules, ``Game.rules_text``), ``legend`` (what the board's
  symbols mean, for a game that defines ``legend()``; printed once at the start too),
  ``help`` (the commands, then the legend); a game may add a note to each listed move
  (``Game.move_note(array, move)``, e.g. what a Forum Trajanum ``take`` costs);
- ``undo``: back to the position before this seat's previous move (the other seats'
  replies are undone too). Games replay exactly from (config, seed, moves), so the
  driver rewinds by replaying the record. Refused before the seat's first move, and in
  hidden-information games: a replayed move would deal the same cards again, so undoing
  would show the person what is hidden (the next draw), and the other seats' secret
  moves would be replayed before their eyes;
- ``quit`` (or end of input: Ctrl-D, or a script that runs out): stop the game.

``undo`` and ``quit`` are requests to whoever drives the game (the ``play`` command):
the agent raises :class:`UndoRequest` or :class:`QuitRequest`; an illegal or malformed
move is reported and asked for again, never raised.

By default the commands come from standard input, which must be a terminal (so that a
tournament, which plays in worker processes, or a piped shell command, cannot seat a
person who is not there); ``input=-`` reads piped standard input anyway and
``input=PATH`` reads a file of commands, one a line.

What the person is told (:func:`announce_ply`, which ``play`` calls after every ply): one
line per ply, ``ply N: seat S (agent) plays MOVE``, where MOVE is what the person's seat
may see of it (``Game.move_seen_by``; a secret move reads "a move hidden from you"),
followed, in a game that defines them, by the move in words (``Game.move_words``) and by
lines on what else became public (``Game.ply_news``: a region that settled, the spaces
drafted once a draft ends, a cycle's scoring). A game may draw a shorter picture at the
prompt than its full ``render`` (``Game.render_seat(array, seat, full)``); the board is
drawn only at the person's own prompt, so the screen moves by a line or two for each
other seat's ply.
"""
from __future__ import annotations

import re
import sys
import textwrap
from typing import Any

from ..core.errors import ForumlabError
from ..core.game import State
from .base import Agent, Param
from .spec import AgentSpecError

HELP = """\
commands:
  MOVE              play a move in the game's notation (e.g. one that 'moves' lists)
  N                 play the move numbered N in 'moves'
  moves [PREFIX]    list the legal moves (only those starting with PREFIX); also '?'
  more              the next page of the last list
  board             show the whole board again
  history           the moves played so far (perfect-information games)
  rules             the game's short rules
  legend            what the symbols of the board mean
  undo              take back your last move and the other seats' replies
                    (not before your first move, nor in hidden-information games)
  quit              stop the game; the record of the moves so far is saved
  help              this list (and the board's legend)"""

LINE_WIDTH = 78
MAX_GROUPS = 80  # beyond this many, a list of how moves begin helps no one


class HumanRequest(Exception):  # noqa: N818 - a request, not an error
    """A command the game's driver carries out (it is not a move).

    Args:
        seat: the seat that asked.
    """

    def __init__(self, seat: int, message: str = ""):
        super().__init__(message or type(self).__name__)
        self.seat = seat


class UndoRequest(HumanRequest):
    """Rewind to the position before ``seat``'s previous move, then ask it again."""


class QuitRequest(HumanRequest):
    """Stop the game here (``reason``: ``"quit"`` or ``"end of input"``)."""

    def __init__(self, seat: int, reason: str):
        super().__init__(seat, reason)
        self.reason = reason


def last_move_index(state: State, seat: int) -> int | None:
    """The index in ``state.history`` of ``seat``'s last move.

    Args:
        state: a position with its full history (not a hidden-information view).
        seat: the seat.

    Returns:
        The ply index (0-based) of the seat's last move, or None if it has not moved.
    """
    replay = state.game.new_state(state.seed)
    last = None
    for i, move in enumerate(state.history):
        if replay.current_player == seat:
            last = i
        state.game.kernels.apply_move(replay.array, move)
    return last


def rewind_before_last_move(state: State, seat: int) -> int:
    """Take back ``seat``'s last move and every move after it, in place.

    The position is rebuilt by replaying the history up to that move from the seed
    (games are deterministic from config, seed and moves).

    Args:
        state: the true game state, changed in place.
        seat: the seat whose last move is taken back.

    Returns:
        The number of plies left in the history.

    Raises:
        ForumlabError: ``seat`` has not moved yet.
    """
    ply = last_move_index(state, seat)
    if ply is None:
        raise ForumlabError(f"seat {seat} has no move to undo")
    replay = state.game.new_state(state.seed)
    for move in state.history[:ply]:
        replay.play(move)
    state.array[:] = replay.array
    state.history[:] = replay.history
    return ply


def _say(text: str) -> None:
    print(text, file=sys.stdout, flush=True)


def seat_picture(state: State, seat: int, full: bool = False, color: bool = False) -> str:
    """The board as a person at ``seat`` sees it.

    Args:
        state: the seat's view (in a hidden-information game, a determinization from it).
        seat: the person's seat.
        full: the whole board rather than the shorter picture of the prompt.
        color: add ANSI colours.

    Returns:
        The game's ``render_seat(array, seat, full)`` if it defines one, else its
        ``render``.
    """
    draw = getattr(state.game, "render_seat", None)
    if draw is None:
        return state.render(color)
    picture = draw(state.array, seat, full)
    if color:
        from ..core.display import colourize

        picture = colourize(picture)
    return picture


def board_legend(game) -> str:
    """What the symbols of ``game``'s board picture mean ("" for a game without a legend)."""
    legend = getattr(game, "legend", None)
    return legend().rstrip("\n") if legend is not None else ""


def announce_ply(game, before, move: int, after, mover: int, label: str, observer: int,
                 ply: int) -> list[str]:
    """What a person at seat ``observer`` is told of one ply (module docstring).

    Args:
        game: the game.
        before: the true state array before the ply.
        move: the move code played.
        after: the true state array after it.
        mover: the seat that played it.
        label: the mover's agent spec, shown in brackets.
        observer: the person's seat.
        ply: the ply's number (1 = the first).

    Returns:
        The ply's line, the move in words appended when the game gives them and the
        line stays short (else on a line of its own), then the game's news lines.
    """
    told = game.move_seen_by(before, move, observer)
    line = f"ply {ply}: seat {mover} ({label}) plays {told or 'a move hidden from you'}"
    lines = [line]
    words_of = getattr(game, "move_words", None)
    words = words_of(before, move, after, observer) if words_of is not None else ""
    if words:
        if len(line) + len(words) + 3 <= LINE_WIDTH + 10:
            lines[0] = f"{line}: {words}"
        else:
            lines.extend(textwrap.wrap(words, width=LINE_WIDTH, initial_indent="    ",
                                       subsequent_indent="    "))
    news_of = getattr(game, "ply_news", None)
    for news in (news_of(before, after, observer) if news_of is not None else []):
        lines.extend(textwrap.wrap(news, width=LINE_WIDTH, initial_indent="  * ",
                                   subsequent_indent="    "))
    return lines


class HumanAgent(Agent):
    """A person choosing moves at the terminal (module docstring: commands, undo, input)."""

    name = "human"
    description = "a person typing moves at the terminal ('help' at the prompt lists the commands)"
    interactive = True
    params = {
        "input": Param("", "commands from: '' a terminal on standard input; '-' standard input "
                           "even when piped; else a file of commands, one a line", kind=str),
        "page": Param(40, "legal moves listed at a time by 'moves'", kind=int, low=1, high=100_000),
    }

    def __init__(self, seed: int = 0, **options: Any):
        """Check where the commands come from (see the module docstring).

        Raises:
            AgentSpecError: standard input is not a terminal and ``input`` does not say to
                read it anyway, or ``input`` names no regular file of at most 4 MiB.
        """
        super().__init__(seed, **options)
        source = self.options["input"]
        if source == "" and not _stdin_is_terminal():
            raise AgentSpecError(
                "agent 'human' needs an interactive standard input (a terminal) to ask a person "
                "for moves; human(input=-) reads commands piped to standard input, "
                "human(input=PATH) reads them from a file")
        self._script: list[str] | None = None  # the file's lines
        if source not in ("", "-"):
            from ..core.files import MAX_COMMAND_BYTES, read_text_file

            # Read whole now: a pipe, a device or a huge file is refused before the game
            # starts, and a file read later cannot fail in the middle of one.
            self._script = read_text_file(source, "command file of agent 'human'", MAX_COMMAND_BYTES,
                                          error=AgentSpecError, errors="replace").splitlines()
        #: print the board at each prompt (False when the driver prints every board itself)
        self.show_board = True
        self._greeted = False
        self._listing: tuple[list[str], list[int], int] | None = None  # texts, numbers, shown

    # ---- input -----------------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        """Print ``prompt`` and read one command line; EOFError at the end of the input."""
        source = self.options["input"]
        sys.stdout.write(prompt)
        sys.stdout.flush()
        if source in ("", "-"):
            try:
                # No standard input at all (started with it closed: sys.stdin is None) or
                # one closed meanwhile is the end of the input, as Ctrl-D is: the game
                # stops, never plays on with someone else in the person's seat.
                line = sys.stdin.readline() if sys.stdin is not None else ""
            except (ValueError, OSError):
                line = ""
            typed = _stdin_is_terminal()  # the terminal has echoed it already
        else:
            line = self._script.pop(0) + "\n" if self._script else ""
            typed = False
        if not line:
            sys.stdout.write("\n")  # end the prompt's line before whatever follows
            raise EOFError
        if not typed:  # echoed, so that the transcript reads as a session
            _say(line.strip())
        return line.strip()

    # ---- the turn ----------------------------------------------------------------------
    def choose(self, state: State) -> int:
        """Ask the person until they name a legal move (module docstring: commands).

        Args:
            state: the view of this agent's seat.

        Returns:
            A legal move code.

        Raises:
            UndoRequest: the person asked to take back their last move.
            QuitRequest: the person quit, or the input ended.
        """
        seat = state.current_player
        if not self._greeted:
            self._greeted = True
            _say(f"You play seat {seat} of {state.game.name} ({state.game.players} players).\n"
                 "Type a move, 'moves' to list them, 'rules' for the rules, 'help' for the commands.")
            legend = board_legend(state.game)
            if legend:
                _say(legend + "\n('legend' shows this again)")
        if self.show_board:
            _say(seat_picture(state, seat, color=sys.stdout.isatty()))
        self._listing = None
        codes = state.legal_moves()
        prompt = f"seat {seat}> "
        while True:
            try:
                line = self._read(prompt)
            except EOFError:
                raise QuitRequest(seat, "end of input") from None
            move = self._command(state, seat, line, codes)
            if move is not None:
                return move

    def _command(self, state: State, seat: int, line: str, codes) -> int | None:
        """Carry out one command line; the move it names, or None to ask again."""
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if not line:
            return None
        if line in ("help", "h"):
            _say(HELP)
            legend = board_legend(state.game)
            if legend:
                _say("\n" + legend)
        elif line == "rules":
            _say(state.game.rules_text().rstrip("\n"))
        elif line == "legend":
            _say(board_legend(state.game) or "this game's board has no symbols beyond its own labels")
        elif word in ("moves", "?"):
            self._list(state, rest)
        elif line == "more":
            self._more()
        elif line == "board":
            _say(seat_picture(state, seat, full=True, color=sys.stdout.isatty()))
        elif line == "history":
            self._history(state)
        elif line == "undo":
            self._undo(state, seat)
        elif line in ("quit", "exit", "q"):
            raise QuitRequest(seat, "quit")
        else:
            return self._move(state, line, codes)
        return None

    def _move(self, state: State, text: str, codes) -> int | None:
        """The legal move ``text`` names (notation, else a list number), or None after
        saying why it is not one."""
        try:
            return state.parse(text)
        except Exception as exc:  # noqa: BLE001 - whatever the game's parser says of a typed text
            problem = str(exc) if isinstance(exc, ForumlabError) else f"{text!r} is not a move ({exc})"
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(codes):
                return int(codes[number - 1])
            _say(f"no move numbered {number}: there are {len(codes)} legal moves ('moves' lists them)")
            return None
        reordered = _same_words_reordered(state, text)
        if reordered is not None:
            code, notation = reordered
            _say(f"(read {text!r} as {notation!r}, the order the notation writes it in)")
            return code
        _say(f"not a legal move: {problem}; 'moves' lists the legal moves, 'help' the commands")
        return None

    def _list(self, state: State, prefix: str) -> None:
        texts = state.legal_move_texts()
        numbers = [i + 1 for i, t in enumerate(texts) if t.startswith(prefix)]
        shown = [texts[i - 1] for i in numbers]
        if prefix:
            _say(f"{len(shown)} of {len(texts)} legal moves start with {prefix!r}")
        else:
            _say(f"{len(texts)} legal moves")
        note = getattr(state.game, "move_note", None)  # e.g. what a move costs
        if note is not None:
            codes = state.legal_moves()
            notes = [note(state.array, int(codes[i - 1])) for i in numbers]
            listed = [f"{t} ({n})" if n else t for t, n in zip(shown, notes)]
        else:
            listed = shown
        self._listing = (listed, numbers, 0)
        self._more()
        if len(shown) > self.options["page"]:
            self._say_groups(shown, prefix)

    @staticmethod
    def _say_groups(texts: list[str], prefix: str) -> None:
        """How the moves of a long list begin, so that a prefix can narrow it (Forma has
        tens of thousands of moves: ``moves P5`` lists one piece's)."""
        groups: dict[str, int] = {}
        for text in texts:
            stem = prefix + re.match(r"[^A-Za-z0-9]*[A-Za-z0-9]*", text[len(prefix):]).group()
            groups[stem] = groups.get(stem, 0) + 1
        if 1 < len(groups) <= MAX_GROUPS and len(groups) < len(texts):
            _say("they start with: " + ", ".join(f"{stem} ({n})" for stem, n in groups.items())
                 + "; 'moves PREFIX' lists those only")

    def _more(self) -> None:
        if self._listing is None:
            _say("no list to continue: 'moves [PREFIX]' lists the legal moves")
            return
        texts, numbers, start = self._listing
        end = min(start + self.options["page"], len(texts))
        cells = [f"{n:>4}. {t}" for n, t in zip(numbers[start:end], texts[start:end])]
        width = max((len(c) for c in cells), default=0) + 2
        per_line = max(1, LINE_WIDTH // width)
        for i in range(0, len(cells), per_line):
            _say("".join(c.ljust(width) for c in cells[i:i + per_line]).rstrip())
        self._listing = (texts, numbers, end)
        if end < len(texts):
            left = len(texts) - end
            _say(f"... {left} more: 'more' shows the next {min(self.options['page'], left)}")

    def _history(self, state: State) -> None:
        if not state.game.perfect_information:
            _say("the history is not shown in a hidden-information game (earlier secret moves would show)")
            return
        texts = state.move_texts()
        _say(" ".join(f"{i + 1}.{t}" for i, t in enumerate(texts)) if texts else "no moves yet")

    def _undo(self, state: State, seat: int) -> None:
        if not state.game.perfect_information:
            _say("undo is not possible in a hidden-information game: replaying would show what "
                 "is hidden (the same cards would be dealt again)")
            return
        if last_move_index(state, seat) is None:
            _say("nothing to undo: you have not moved yet")
            return
        raise UndoRequest(seat)


def _words(text: str) -> list[str]:
    return sorted(w for w in re.split(r"[\s,]+", text.strip()) if w)


def _same_words_reordered(state: State, text: str) -> tuple[int, str] | None:
    """The one legal move whose notation has the words of ``text`` in another order, with
    that notation; None when no move or several have. A person types a pair in the order
    the prompt names its parts (Forum Trajanum's draft: ``take b3 c1`` for street cards Cb
    then R1), the notation writes it in reading order (``take c1 b3``). One-word moves
    (most notations) are never reordered."""
    words = _words(text)
    if len(words) < 2:
        return None
    found = [(int(code), notation) for code, notation in zip(state.legal_moves(), state.legal_move_texts())
             if _words(notation) == words]
    return found[0] if len(found) == 1 else None


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed or detached
        return False
