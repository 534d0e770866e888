"""Where chunk results go: merged in chunk order, kept, streamed to a file, shown on a bar.

Both backends hand every chunk's ``(Summary, rows)`` to a :class:`Collector` in chunk order,
so the merged summary, the kept rows and the streamed files are the same whatever the
backend. :func:`open_rows_writer` streams per-game rows to ``.parquet`` (pyarrow
``ParquetWriter``, one row group per chunk) or ``.csv`` chunk by chunk: memory does not grow
with the number of games.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from montecards.engine.spec import InputError, Layout
from montecards.run.paths import write_failure
from montecards.run.summary import Summary

STREAM_FORMATS = (".csv", ".parquet")


class Collector:
    """Merge chunk results handed over in chunk order (from game ``first`` on); keep or stream
    rows; advance a bar."""

    def __init__(
        self,
        layout: Layout,
        keep_games: bool = False,
        on_rows: Callable[[int, np.ndarray], None] | None = None,
        advance: Callable[[int], None] | None = None,
        first: int = 0,
    ):
        self.summary = Summary.empty(layout)
        self.keep_games = keep_games
        self.on_rows = on_rows
        self.advance = advance
        self.kept: list[np.ndarray] = []
        self.next_start = first

    @property
    def needs_rows(self) -> bool:
        return self.keep_games or self.on_rows is not None

    def add(self, start: int, count: int, summary: Summary, rows: np.ndarray | None) -> None:
        if start != self.next_start:
            raise RuntimeError(f"chunk starting at game {start} handed over out of order")
        self.next_start = start + count
        self.summary = self.summary.merge(summary)
        if self.keep_games:
            self.kept.append(rows)
        if self.on_rows is not None:
            self.on_rows(start, rows)
        if self.advance is not None:
            self.advance(count)

    def result(self) -> tuple[Summary, np.ndarray | None]:
        rows = np.concatenate(self.kept) if self.keep_games and self.kept else None
        return self.summary, rows


class RowsWriter:
    """Streams per-game rows to one file, chunk by chunk, in game order.

    Written under a temporary name and renamed into place by :meth:`close`, so a failed or
    killed run never leaves a truncated file under the requested name. Use as a context
    manager; the instance is the ``on_rows(start, rows)`` callback of the engine.
    """

    def __init__(self, path: str | os.PathLike, to_frame: Callable[[np.ndarray], pd.DataFrame]):
        self.path = Path(path)
        self.suffix = self.path.suffix.lower()
        if self.suffix not in STREAM_FORMATS:
            raise InputError(f"rows stream to {', '.join(STREAM_FORMATS)} files, got {str(path)!r}")
        self.to_frame = to_frame
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        self._file = None
        self._parquet = None
        self.rows_written = 0

    def __call__(self, start: int, rows: np.ndarray) -> None:
        try:
            self._write(start, rows)
        except OSError as exc:
            raise write_failure(self.path, exc) from None

    def _write(self, start: int, rows: np.ndarray) -> None:
        if start != self.rows_written:
            raise RuntimeError(f"rows of game {start} written out of order")
        frame = self.to_frame(rows)
        import pandas as pd  # lazily: workers that only play chunks never load it
        frame.index = pd.RangeIndex(start, start + len(frame))
        if self.suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame, preserve_index=False)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self.tmp, table.schema)
            self._parquet.write_table(table)
        else:
            if self._file is None:
                self._file = open(self.tmp, "w", newline="")
            frame.to_csv(self._file, index_label="game", header=self.rows_written == 0)
        self.rows_written += len(frame)

    def close(self) -> None:
        """Finish the file and move it into place."""
        try:
            self._close()
        except OSError as exc:
            self.abort()
            raise write_failure(self.path, exc) from None

    def _close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
        if self._file is not None:
            self._file.close()
        if self._parquet is None and self._file is None:
            return
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        """Drop the temporary file (nothing under the requested name was touched)."""
        try:
            if self._parquet is not None:
                self._parquet.close()
            if self._file is not None:
                self._file.close()
        except OSError:
            pass
        finally:
            self._parquet = self._file = None
            self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> RowsWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()
