"""Errors a user can cause. The CLI shows them in one or two lines and exits with code 2."""

from __future__ import annotations


class SimcliError(Exception):
    """Base of every error caused by user input (config, files, arguments)."""

    exit_code = 2


class ConfigError(SimcliError):
    """A config file that cannot be used: missing, malformed, or with invalid values."""


class StrategyLoadError(SimcliError):
    """A strategy that cannot be found, imported or constructed."""


class UnknownGameError(SimcliError):
    """A game id that is not registered."""


class GameOptionError(SimcliError):
    """An option a game does not have, or a value it does not accept."""


class RecordError(SimcliError):
    """A game log that cannot be read: not JSON lines, unknown schema or game."""


class OutputExistsError(SimcliError):
    """The output folder already holds a run and neither --force nor --resume was given.
    Its own exit code (4), so that a CI job can tell "this workspace has an old run" from a
    broken config (2)."""

    exit_code = 4


class OutputPathError(SimcliError):
    """An output path that cannot hold a run: a file where a folder should be."""


class FolderInUseError(SimcliError):
    """Another simcli process holds the output folder's lock."""


class GameLoadError(SimcliError):
    """A plug-in game that cannot be found, imported, created or set up."""
