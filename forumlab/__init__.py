"""forumlab: AI research framework for Forum Romanum, Forma, Foundations of Rome and Forum Trajanum."""

__version__ = "0.1.0"
