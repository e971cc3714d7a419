"""A test bot that breaks one rule of forumlab-bot/1, chosen by its first argument.

Otherwise it plays like examples/bots/random_bot.py (a random legal move, seeded by the
new_game seed). Modes: good, bad-handshake, wrong-protocol, malformed, illegal, hang,
crash, early-exit, unknown-game, flood (an endless line), latin1 (a move not in UTF-8), chatty (answers a message type it does not know),
deaf (ignores quit), immortal (ignores quit and the end of stdin), session (kept across games; each move's info counts the games
its process has played), peek (writes every line it receives to the file named by its
second argument). Standard library only.
"""
import json
import os
import random
import signal
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
GAMES_PLAYED = [0]
GAMES = ["forma", "forum-romanum", "forum-trajanum", "foundations-of-rome"]


def send(message):
    if message is None:  # already written
        return
    sys.stdout.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
    sys.stdout.flush()


def hello():
    if MODE == "bad-handshake":
        return "hello referee, nice to meet you"
    return {"type": "hello", "protocol": "forumlab-bot/0" if MODE == "wrong-protocol" else "forumlab-bot/1",
            "name": f"broken-{MODE}", "version": "0", "games": ["chess"] if MODE == "unknown-game" else GAMES,
            "budgets": [], "lifetime": "session" if MODE == "session" else "game", "legal_moves": True}


def move(message, rng, moves_made):
    if MODE == "malformed":
        return "{move: e4"
    if MODE == "illegal":
        return {"type": "move", "move": "no-such-move"}
    if MODE == "flood":
        while True:
            sys.stdout.write("x" * 65536)
    if MODE == "latin1":
        sys.stdout.buffer.write(b'{"type":"move","move":"caf\xe9"}\n')
        sys.stdout.flush()
        return None
    if MODE == "hang":
        time.sleep(3600)
    if MODE == "crash" and moves_made == 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    if MODE == "early-exit" and moves_made == 2:
        sys.exit(0)
    return {"type": "move", "move": rng.choice(message["legal_moves"]), "info": {"games": GAMES_PLAYED[0]}}


def main():
    rng, moves_made = random.Random(0), 0
    log = open(sys.argv[2], "a") if MODE == "peek" else None
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send(hello())
        elif kind == "new_game":
            rng = random.Random(message["seed"])
            GAMES_PLAYED[0] += 1
            send({"type": "ready"})
        elif kind == "move":
            send(move(message, rng, moves_made))
            moves_made += 1
        elif kind == "quit":
            if MODE not in ("deaf", "immortal"):
                return
        elif kind != "game_over" and MODE == "chatty":
            send({"type": "error", "what": f"unknown message {kind}"})
    while MODE == "immortal":
        time.sleep(1)


if __name__ == "__main__":
    main()
