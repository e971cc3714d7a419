"""``python -m forumlab``: the same command line as the ``forumlab`` script."""
from .cli import main

if __name__ == "__main__":
    main(prog_name="forumlab")
