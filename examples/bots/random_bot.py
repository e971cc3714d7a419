#!/usr/bin/env python3
"""A random bot for forumlab's bot protocol (forumlab-bot/1), standard library only.

It plays every game, asks the referee for the legal moves and picks one at random, seeded
by the new_game message's seed (so a game replays exactly). Run it through the referee:

    forumlab play forum-romanum -a 'cmd:python3 examples/bots/random_bot.py,random,random'
    forumlab bot check 'python3 examples/bots/random_bot.py'

With the option think=true it spends half of a wall_ms budget before answering, which
shows how a bot honours a budget and reports its thinking time. The protocol is in
docs/bot-protocol.md; this file is a template for a bot in any language.
"""
import json
import random
import sys
import time

HELLO = {
    "type": "hello",
    "protocol": "forumlab-bot/1",
    "name": "random-py",
    "version": "1.0",
    "games": ["forma", "forum-romanum", "forum-trajanum", "foundations-of-rome"],
    "options": {"think": {"type": "bool", "default": False,
                          "help": "spend half of a wall_ms budget before answering"}},
    "budgets": ["wall_ms"],
    "lifetime": "game",
    "legal_moves": True,
}


def send(message):
    """Write one message as one line and flush (the referee waits for the newline)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    rng, options = random.Random(0), {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send(HELLO)
        elif kind == "new_game":
            rng = random.Random(message["seed"])
            options = message.get("options", {})
            print(f"new game of {message['game']}, seat {message['seat']}", file=sys.stderr)
            send({"type": "ready"})
        elif kind == "move":
            started = time.perf_counter()
            budget = message.get("budget", {}).get("wall_ms", 0)
            if options.get("think") and budget:
                time.sleep(budget / 2000.0)
            move = rng.choice(message["legal_moves"])
            send({"type": "move", "move": move,
                  "info": {"wall_ms": (time.perf_counter() - started) * 1000.0}})
        elif kind == "quit":
            return
        # game_over, and any message type this bot does not know, needs no answer


if __name__ == "__main__":
    main()
