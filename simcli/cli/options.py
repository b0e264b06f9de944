"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Callable

import click


def _remember_verbose(ctx: click.Context, _param, value: bool) -> bool:
    if value:
        ctx.meta["simcli.verbose"] = True
    return value


def verbosity(func: Callable) -> Callable:
    """``-q/--quiet`` (no progress bar or table) and ``-v/--verbose`` (debug log lines,
    tracebacks of internal errors)."""
    func = click.option(
        "-v",
        "--verbose",
        is_flag=True,
        callback=_remember_verbose,
        expose_value=True,
        is_eager=True,
        help="More detail in run.log; tracebacks for internal errors.",
    )(func)
    func = click.option("-q", "--quiet", is_flag=True, help="No progress bar or summary.")(func)
    return func


def config_overrides(func: Callable) -> Callable:
    """Flags that override config keys."""
    for decorator in reversed(
        [
            click.option(
                "--out",
                "out",
                type=click.Path(file_okay=False),
                help="Output folder (default: the config's 'output', results/<name>).",
            ),
            click.option(
                "--workers",
                type=click.IntRange(min=0),
                help="Worker processes (default: config 'workers', else CPU count; "
                "0 = play in this process).",
            ),
            click.option(
                "--seed", type=click.IntRange(min=0), help="Root seed (default: config 'seed')."
            ),
            click.option(
                "--games",
                type=click.IntRange(min=1),
                help="Games per table (default: config 'games').",
            ),
            click.option(
                "--isolation",
                type=click.Choice(["inprocess", "process"]),
                help="Where strategies run unless their entry says otherwise: in the "
                "worker (trusted code) or each in its own sandboxed process (default: "
                "config 'isolation', else inprocess).",
            ),
        ]
    ):
        func = decorator(func)
    return func


def repeat_command(ctx: click.Context, head: list[str], skip: tuple[str, ...] = ()) -> str:
    """``head`` followed by every option given on the command line of ``ctx`` (not those
    named in ``skip``, nor defaults), as a shell command: what to run to do it again."""
    import shlex

    from click.core import ParameterSource

    command = list(head)
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name in skip:
            continue
        if ctx.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
            continue
        value = ctx.params[param.name]
        name = max(param.opts, key=len)
        if param.is_flag:
            if value:
                command.append(name)
            elif param.secondary_opts:
                command.append(max(param.secondary_opts, key=len))
        else:
            command += [name, str(value)]
    return shlex.join(command)


PROBE_OPTION = click.option(
    "--probe",
    "probe_games",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    metavar="N",
    help="Games played first in a child process (at most about 2 s) to estimate the run "
    "time; 0: no estimate.",
)
