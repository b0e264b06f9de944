"""``simcli export RUN``: the tidy table (one row per game and seat) as CSV, JSON lines
or Parquet."""

from __future__ import annotations

import click

from simcli.errors import SimcliError

FORMATS = ("csv", "jsonl", "parquet")


class ExportError(SimcliError):
    """The table cannot be written in the format asked for."""


@click.command()
@click.argument("run_path", metavar="RUN", type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="csv",
    show_default=True,
    help="parquet needs pyarrow (pip install 'simcli[analysis]') and --out.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Write to this file (replaced atomically) instead of standard output.",
)
@click.option(
    "--parts",
    is_flag=True,
    help="Replay every game to add its own figures: length in rounds or turns and score "
    "parts per seat (e.g. each Ex Libris inspection part). Slower.",
)
def export(run_path, fmt, out, parts) -> None:
    """Write the table of RUN (a run folder or a games.jsonl): one row per game and
    seat with seat, strategy, points, rank, win, variant, termination, forfeit and
    length; columns in docs/analysis.md.

    \b
    simcli export results/quickstart > quickstart.csv
    simcli export results/ex-libris-2p --parts --format parquet --out exlibris.parquet
    """
    from simcli.table import iter_rows

    if fmt == "parquet":
        if out is None:
            raise ExportError("--format parquet writes a binary file: give --out FILE")
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ExportError(
                "--format parquet needs pyarrow, which is not installed "
                "(pip install 'simcli[analysis]', or use --format csv or jsonl)"
            ) from None
    rows = iter_rows(run_path, parts=parts)
    if out is None:
        import sys

        # sys.stdout, not click.get_text_stream: Click 9 deprecates it (and CliRunner
        # captures sys.stdout all the same)
        _write(rows, fmt, sys.stdout)
        return
    _write_file(rows, fmt, out)


def _write(rows, fmt: str, stream) -> None:
    import csv
    import json

    from simcli.table import columns_of

    if fmt == "jsonl":
        for row in rows:
            stream.write(json.dumps(row, ensure_ascii=False) + "\n")
        return
    rows = list(rows)  # the columns depend on every row (parts, options)
    writer = csv.DictWriter(stream, fieldnames=columns_of(rows), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def _write_file(rows, fmt: str, out: str) -> None:
    import os
    from pathlib import Path

    path = Path(out)
    tmp = path.with_name(path.name + ".tmp")
    try:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            from simcli.table import columns_of

            rows = list(rows)
            names = columns_of(rows)
            table = pa.Table.from_pylist([{k: row.get(k) for k in names} for row in rows])
            pq.write_table(table, tmp)
        else:
            with tmp.open("w", encoding="utf-8", newline="") as stream:
                _write(rows, fmt, stream)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
