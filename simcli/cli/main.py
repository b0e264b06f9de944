"""The ``simcli`` command group. Commands live one per module in this package and
import their heavy dependencies only when they run, so ``simcli --help`` stays fast."""

from __future__ import annotations

import sys
import traceback

import click

from simcli.cli.balance import balance
from simcli.cli.bench import bench
from simcli.cli.check_game import check_game
from simcli.cli.compare import compare
from simcli.cli.export import export
from simcli.cli.gate import gate
from simcli.cli.list_cmd import list_cmd
from simcli.cli.power import power
from simcli.cli.replay import replay
from simcli.cli.report import report
from simcli.cli.run import run
from simcli.cli.sprt_calc import sprt_calc
from simcli.cli.validate import validate
from simcli.cli.view import view
from simcli.errors import SimcliError
from simcli.version import __version__

INTERNAL_ERROR = 70  # EX_SOFTWARE


class SimcliGroup(click.Group):
    """Shows user errors in one line (exit 2) and internal errors without a traceback
    unless ``-v`` was given."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SimcliError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            # the reader went away (`simcli replay RUN | head -1`): not an error
            _silence_stdout()
            ctx.exit(0)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:
            if ctx.meta.get("simcli.verbose"):
                traceback.print_exc(file=sys.stderr)
            click.echo(
                f"internal error: {type(exc).__name__}: {exc}"
                + ("" if ctx.meta.get("simcli.verbose") else " (run with -v for the traceback)"),
                err=True,
            )
            ctx.exit(INTERNAL_ERROR)


@click.group(cls=SimcliGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="simcli")
def cli() -> None:
    """Headless tournaments and simulations for library-themed tabletop games.

    \b
    simcli run configs/quickstart.yaml            play a tournament
    simcli balance configs/libraria-balance.yaml  seat balance by skill, fair komi
    simcli replay results/quickstart --verify     re-play and check every logged game
    simcli export results/quickstart > t.csv      one row per game and seat, for analysis
    simcli list                                   games and strategies
    simcli check-game path/to/rules.py:MyGame     check a game against the game contract
    """


cli.add_command(run)
cli.add_command(validate)
cli.add_command(replay)
cli.add_command(export)
cli.add_command(report)
cli.add_command(list_cmd)
cli.add_command(bench)
cli.add_command(gate)
cli.add_command(sprt_calc)
cli.add_command(power)
cli.add_command(check_game)
cli.add_command(compare)
cli.add_command(balance)
cli.add_command(view)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush of a closed pipe
    raises nothing."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file (e.g. under a test runner)
        pass
    finally:
        os.close(devnull)


def main() -> None:
    """The console script. A closed stdout (the reader of a pipe went away, as in
    ``simcli replay RUN | head -1``) ends any command quietly with exit code 0."""
    try:
        cli()
        code = 0
    except SystemExit as exc:
        code = exc.code
        if isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
            code = 0  # click's own answer to a broken pipe outside a command (--help)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        code = 0
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
