"""User strategies: finding, checking and compiling them, and reading their faults after a run.

A user strategy is a plain Python function ``choose(obs, legal, params, memory, rng) -> int``
over a game's decision interface (``docs/strategies.md``). :class:`UserStrategy` holds one,
with where it came from (a ``.py`` file, an importable module, or only a function object),
a hash of its source, the size of its scratch ``memory`` and, once bound, its ``params``.
It is compiled by numba for the one signature :data:`montecards.engine.user_seats.SIG` (cached on
disk like the kernels, when it lives in a file), and the kernels call it through the tuple
:func:`kernel_arg` builds (``engine/user_seats.py`` says why a tuple).

It pickles as a reference — where it came from, its name and source hash — so a Dask worker or
a resumed checkpoint imports the very same code again and refuses code that changed.
"""

from __future__ import annotations

import dis
import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numba import types
from numba.core import caching

from montecards.engine import user_seats as jit_user
from montecards.engine.kernel import block_count
from montecards.engine.weights import WeightedSeat, format_weight
from montecards.errors import InputError, StrategyError

DEFAULT_MEMORY = 128
"""Floats of per-seat ``memory`` a strategy gets unless it asks for another size."""

MAX_MEMORY = 1 << 20
MAX_PARAMS = 4096

ARGUMENTS = ("obs", "legal", "params", "memory", "rng")
CONTRACT = "choose(obs, legal, params, memory, rng) -> int"

_FILE_MODULES = "_montecards_user"


class FileModuleLocator(caching._CacheLocator):
    """Where numba caches the functions of a strategy file montecards loaded by reference
    (module ``_montecards_user.<stem>``): numba's usual folder for the file (``__pycache__``
    beside it, or under ``NUMBA_CACHE_DIR``), in a subfolder named after that module.

    A cache entry records the module its function was compiled in, and numba imports that
    module by name to load it. The same file imported by the user (``from lowcard import
    choose``, module ``lowcard``) would otherwise share the entry's file name with the
    loaded one, and each form would find the other's entry and fail to import its module. So
    each form has its own entries: the documented forms work in any order, in one process or
    across processes.
    """

    def __init__(self, inner: caching._CacheLocator, module: str) -> None:
        self._inner = inner
        self._cache_path = os.path.join(inner.get_cache_path(), module)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> Any:
        return self._inner.get_source_stamp()

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> FileModuleLocator | None:
        module = getattr(py_func, "__module__", None) or ""
        if not module.startswith(_FILE_MODULES + "."):
            return None
        for other in caching.CacheImpl._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                break
        else:
            return None
        self = cls(inner, module)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


if FileModuleLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, FileModuleLocator)


@dataclass(eq=False)
class UserStrategy:
    """A user strategy for one game (or any game when ``game`` is None), with its identity.

    ``origin`` is ``"file"`` (``source`` a path), ``"module"`` (``source`` a module name) or
    ``"object"`` (a function defined where no worker can import it, e.g. a notebook).
    """

    function: Callable[..., Any]
    game: str | None = None
    memory: int = DEFAULT_MEMORY
    params: tuple[float, ...] = ()
    origin: str = "object"
    source: str = ""
    source_hash: str = ""
    alias: str = ""
    """The label when another strategy of this process already holds the plain one (``register``)."""
    declared: tuple[float, ...] | None = None
    """The params the strategy declares (``@mc.strategy(params=...)``): their count and defaults;
    None when it declares none (its params are then not counted)."""
    param_names: tuple[str, ...] = ()
    """The declared params' names (``params={"name": default, ...}``), or none."""
    _compiled: Any = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.function.__name__

    @property
    def reference(self) -> str:
        """``path/to/file.py:name``, ``package.module:name``, or the bare name."""
        return f"{self.source}:{self.name}" if self.origin != "object" else self.name

    @property
    def label(self) -> str:
        """How outputs name this strategy: its reference, with its params when it has any."""
        if self.alias:
            return self.alias
        if not self.params:
            return self.reference
        return f"{self.reference}[{','.join(format_weight(p) for p in self.params)}]"

    def __call__(self, *args: Any) -> Any:
        """The plain Python function (for trying a strategy out or debugging it)."""
        return self.function(*args)

    def __reduce__(self):
        if self.origin == "object":
            raise StrategyError(
                f"strategy {self.name} is defined in {self.function.__module__}, which another "
                "process cannot import: put it in a .py file and pass 'path/to/file.py:"
                f"{self.name}' (or 'package.module:{self.name}')"
            )
        source = str(Path(self.source).resolve()) if self.origin == "file" else self.source
        return (_restore, (self.origin, source, self.name, self.game, self.memory,
                           self.params, self.source_hash, self.declared, self.param_names))

    def check_portable(self) -> None:
        """Raise :class:`StrategyError` unless another process can import this strategy."""
        self.__reduce__()

    def identity(self) -> dict[str, Any]:
        """What identifies this strategy's games: where it is, its source hash, params, memory."""
        return {"strategy": self.reference, "origin": self.origin, "source_hash": self.source_hash,
                "params": list(self.params), "memory": self.memory}

    @property
    def features(self) -> tuple[str, ...]:
        """A name per declared param (``w0, w1, ...`` where the strategy names none)."""
        count = len(self.declared) if self.declared is not None else len(self.params)
        return self.param_names or tuple(f"w{k}" for k in range(count))

    def bind(self, params: Sequence[float] | None) -> UserStrategy:
        """The same strategy with seat weights ``params``.

        A strategy that declares its params (``@mc.strategy(params=...)``) takes at most that
        many (StrategyError beyond); missing ones, and None, take its declared defaults. One that
        declares none takes any number, unless its code never reads ``params`` (StrategyError:
        they would change nothing)."""
        values = check_params(self.reference, params)
        if self.declared is not None:
            if len(values) > len(self.declared):
                raise StrategyError(
                    f"strategy {self.reference} declares {_declared_text(self)}, got {len(values)} params"
                )
            values = values + self.declared[len(values):]
        elif values and not _reads_params(self.function):
            raise StrategyError(
                f"strategy {self.reference} declares no params and its code never reads "
                f"'{self.function.__code__.co_varnames[2]}': params {list(values)} would change nothing"
            )
        return replace(self, params=values, alias="")

    def for_game(self, game: str, has_decisions: bool) -> UserStrategy:
        """This strategy, checked to be usable in ``game``: the game it is bound to
        (``@mc.strategy(game)``), or else every game whose package its code reads (its
        ``view``: the observation layouts differ from game to game)."""
        if not has_decisions:
            raise InputError(f"{game} has no player decisions: a user strategy cannot play it")
        if self.game is not None and self.game != game:
            raise StrategyError(f"strategy {self.reference} is written for {self.game}, not for {game}")
        read = games_read(self.function)
        if read and game not in read:
            modules = ", ".join(f"montecards.games.{g}" for g in sorted(read))
            raise StrategyError(
                f"strategy {self.reference} reads {modules}, so it is written for "
                f"{' or '.join(sorted(read))}, not for {game} (the observation layouts differ)"
            )
        return self

    def compiled(self) -> Any:
        """The numba function for :data:`~montecards.engine.user_seats.SIG` (compiled once)."""
        if self._compiled is None:
            self._compiled = _compile(self)
        return self._compiled


def _restore(origin, source, name, game, memory, params, source_hash, declared=None,
             param_names=()) -> UserStrategy:
    """A strategy unpickled (on a Dask worker, or from a checkpoint's record): imported again
    from where it came from, and refused if its source changed."""
    found = load(f"{source}:{name}", game)
    if found.source_hash != source_hash:
        raise StrategyError(
            f"strategy {found.reference} changed since the run started (source hash "
            f"{found.source_hash[:12]}, the run used {source_hash[:12]}): refusing to mix them"
        )
    return replace(found, memory=memory, params=tuple(params), declared=declared,
                   param_names=tuple(param_names))


def _declared_text(found: UserStrategy) -> str:
    count = len(found.declared or ())
    if not count:
        return "no params"
    names = f" ({', '.join(found.param_names)})" if found.param_names else ""
    return f"{count} param{'s' if count > 1 else ''}{names}"


def _reads_params(function: Callable[..., Any]) -> bool:
    """True unless the code of ``function`` never reads its third argument (``params``)."""
    code = function.__code__
    if code.co_argcount < 3:
        return True
    name = code.co_varnames[2]
    if name in code.co_cellvars:
        return True  # a closure inside reads it
    for ins in dis.get_instructions(code):
        if ins.opname.startswith("LOAD"):
            value = ins.argval if isinstance(ins.argval, tuple) else (ins.argval,)
            if name in value:
                return True
    return False


_GAMES = "montecards.games."
_NOT_USER = ("montecards", "numba", "numpy", "math", "builtins")


def games_read(function: Any, _seen: set[int] | None = None) -> set[str]:
    """The games whose packages (``montecards.games.<game>``: its ``view``) the code of
    ``function`` reads, directly or through the user's own helpers it calls: a strategy
    written over one game's observation layout cannot play another game."""
    seen = set() if _seen is None else _seen
    function = getattr(function, "py_func", getattr(function, "function", function))
    if not inspect.isfunction(function) or id(function) in seen:
        return set()
    seen.add(id(function))
    names: set[str] = set()
    codes = [function.__code__]
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(c for c in code.co_consts if inspect.iscode(c))
    values = [function.__globals__[n] for n in names if n in function.__globals__]
    values += [cell.cell_contents for cell in function.__closure__ or () if _filled(cell)]
    found: set[str] = set()
    for value in values:
        module = value.__name__ if inspect.ismodule(value) else getattr(
            getattr(value, "py_func", value), "__module__", None)
        if not isinstance(module, str):
            continue
        if module.startswith(_GAMES):
            found.add(module[len(_GAMES):].split(".")[0])
        elif not inspect.ismodule(value) and module.split(".")[0] not in _NOT_USER:
            found |= games_read(value, seen)  # the user's own helper
    return found


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def strategy(game: str | None = None, *, memory: int = DEFAULT_MEMORY,
             params: Sequence[float] | Mapping[str, float] | None = None
             ) -> Callable[[Callable[..., Any]], UserStrategy]:
    """Decorator: ``@mc.strategy("parade")`` makes ``choose`` a user strategy for Parade
    (``memory``: floats of per-seat scratch; ``params``: the params it declares, with their
    defaults: a list, or ``{"name": default, ...}`` to name them in tuning outputs)."""
    if game is not None and not isinstance(game, str):
        raise InputError(f"@mc.strategy takes a game name first, e.g. @mc.strategy(\"parade\"), got {game!r}")

    def wrap(function: Callable[..., Any]) -> UserStrategy:
        found = from_function(function, game, memory=memory)
        if params is None:
            return found
        names: tuple[str, ...] = ()
        values = params
        if isinstance(params, Mapping):
            names = tuple(str(k) for k in params)
            values = list(params.values())
            bad = [k for k in names if not re.fullmatch(r"[A-Za-z_]\w*", k)]
            if bad:
                raise InputError(f"strategy {found.name}: param names must be identifiers, got {bad[0]!r}")
        declared = check_params(found.name, values)
        return replace(found, declared=declared, param_names=names, params=declared)

    return wrap


def from_function(function: Any, game: str | None = None, memory: int | None = None,
                  where: str | None = None) -> UserStrategy:
    """A :class:`UserStrategy` from a function object (its identity taken from its module).
    ``where``: the reference it was loaded by (named in errors)."""
    if isinstance(function, UserStrategy):
        return function if memory is None else replace(function, memory=check_memory(function.name, memory))
    function = getattr(function, "py_func", function)  # a function the user decorated with @njit
    if not inspect.isfunction(function):
        kind = type(function).__name__
        if where:
            raise StrategyError(f"strategy {where} is not a function (it is a {kind}): a strategy must "
                                f"be a function {CONTRACT}")
        raise StrategyError(f"a strategy must be a function {CONTRACT} or a built-in name, got a {kind}")
    _check_signature(function, where or function.__name__)
    module = sys.modules.get(function.__module__)
    path = getattr(module, "__file__", None)
    origin, source = "object", ""
    found = getattr(module, function.__name__, None)
    found = getattr(found, "py_func", getattr(found, "function", found))  # @njit / @mc.strategy
    importable = module is not None and found in (function, None) and "<locals>" not in function.__qualname__
    if importable and path and function.__module__ != "__main__":
        if function.__module__.startswith(_FILE_MODULES + "."):
            origin, source = "file", getattr(module, "__montecards_path__", path)
        else:
            origin, source = "module", function.__module__
    return UserStrategy(
        function=function,
        game=game,
        memory=check_memory(function.__name__, DEFAULT_MEMORY if memory is None else memory),
        origin=origin,
        source=source,
        source_hash=_source_hash(function, path if origin != "object" else None),
    )


def looks_like_reference(text: str) -> bool:
    """True for ``file.py:name`` or ``package.module:name``, with or without params
    (``file.py:name[1,0.5]``): not a built-in strategy name."""
    return ":" in text or split_label(text)[0].endswith(".py")


_PARAMS = re.compile(r"^(.*)\[([^\[\]]*)\]$")


def split_label(text: str) -> tuple[str, tuple[float, ...] | None]:
    """``("file.py:choose", (1.0, 0.5))`` for the label ``file.py:choose[1,0.5]``; the text and
    None when it has no bracketed params."""
    match = _PARAMS.match(text.strip())
    if match is None:
        return text, None
    inner = match.group(2).strip()
    try:
        values = tuple(float(part) for part in inner.split(",")) if inner else ()
    except ValueError:
        raise StrategyError(
            f"strategy {text!r}: the params in brackets must be numbers separated by commas"
        ) from None
    return match.group(1), values


def load(reference: str, game: str | None = None) -> UserStrategy:
    """The strategy ``path/to/file.py:name`` or ``package.module:name``, or one of their labels
    with params, ``path/to/file.py:name[1,0.5]`` (the params bound)."""
    reference, params = split_label(reference)
    where, sep, name = reference.rpartition(":")
    if not sep or not where or not name:
        raise StrategyError(
            f"strategy {reference!r}: give it as path/to/file.py:function or package.module:function"
        )
    is_file = where.endswith(".py") or os.sep in where or "/" in where
    if is_file:
        module = _load_file(reference, where)
    elif where in sys.modules:
        module = sys.modules[where]  # imported by the user already: that very module
    else:
        module = _load_module_file(reference, where)
    function = getattr(module, name, None)
    if function is None:
        raise StrategyError(f"strategy {reference}: {getattr(module, '__file__', where)} defines no {name!r}")
    found = from_function(function, game, where=reference)
    if not is_file and found.origin == "file":
        found = replace(found, origin="module", source=where)
    if isinstance(function, UserStrategy):
        found = replace(function, game=function.game or game)
    return found if params is None else found.bind(params)


def load_module(path: str | Path) -> Any:
    """The module of a strategy file, imported as the loader imports it (under the one module
    name numba's cache of its jitted helpers expects: always load files this way)."""
    return _load_file(str(path), str(path))


def _load_module_file(reference: str, where: str) -> Any:
    """``package.module``, imported from its file the way a file reference is (one module name
    per file, so numba's cache of its helpers is the same whichever way it is named), with its
    package kept for relative imports."""
    try:
        found = importlib.util.find_spec(where)
    except ModuleNotFoundError as error:
        raise StrategyError(f"strategy {reference}: no module named {error.name!r}") from None
    except Exception as error:  # noqa: BLE001 - a parent package failed to import
        raise StrategyError(f"strategy {reference}: importing {where} failed: {_one_line(error)}") from None
    if found is None:
        raise StrategyError(f"strategy {reference}: no module named {where!r}")
    if not found.origin or not found.origin.endswith(".py"):
        try:
            return importlib.import_module(where)
        except Exception as error:  # noqa: BLE001 - the user's module failed to import
            raise StrategyError(
                f"strategy {reference}: importing {where} failed: {_one_line(error)}") from None
    return _load_file(reference, found.origin, package=where.rpartition(".")[0])


def _load_file(reference: str, where: str, package: str | None = None) -> Any:
    path = Path(where).expanduser()
    if not path.is_file():
        raise StrategyError(f"strategy {reference}: no such file {where}")
    path = path.resolve()
    # One name per file stem (``_montecards_user.parade_greedy``), the same in every process
    # and every clone: numba's cache of the file's jitted helpers records it, and a cache
    # written under another name cannot be loaded. A second file with the same stem in one
    # process gets its path's hash appended.
    stem = re.sub(r"\W", "_", path.stem)
    module_name = f"{_FILE_MODULES}.{stem}"
    taken = sys.modules.get(module_name)
    if taken is not None and getattr(taken, "__montecards_file__", None) == str(path):
        return taken
    if taken is not None:
        module_name += "_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
        if module_name in sys.modules:
            return sys.modules[module_name]
    if _FILE_MODULES not in sys.modules:
        package = importlib.util.module_from_spec(importlib.machinery.ModuleSpec(_FILE_MODULES, None))
        package.__path__ = []
        sys.modules[_FILE_MODULES] = package
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    module.__montecards_path__ = where
    module.__montecards_file__ = str(path)
    if package is not None:
        module.__package__ = package
    # numba caches a function by its module: registered before it runs, the module is found
    # again by name in the next process (an unregistered one is cached as "<dynamic>").
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 - the user's file failed to run
        del sys.modules[module_name]
        raise StrategyError(f"strategy {reference}: running {where} failed: {_one_line(error)}") from None
    return module


def _check_signature(function: Callable[..., Any], name: str) -> None:
    where = _file_of(function, name)
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        raise StrategyError(
            f"strategy {name}{where}: cannot read its signature; expected {CONTRACT}") from None
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) != len(parameters) or len(positional) != len(ARGUMENTS):
        got = ", ".join(p.name for p in parameters)
        raise StrategyError(
            f"strategy {name}{where} has the wrong signature ({got}): expected {CONTRACT}")


def _file_of(function: Callable[..., Any], name: str) -> str:
    """`` (in path/to/file.py)``: where ``function`` is defined, for messages naming ``name``."""
    code = getattr(function, "__code__", None)
    if code is None or Path(code.co_filename).name in name:
        return ""
    return f" (in {code.co_filename})"


def _source_hash(function: Callable[..., Any], path: str | None) -> str:
    if path is not None:
        try:
            return hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            pass
    try:
        text = inspect.getsource(function).encode()
    except (OSError, TypeError):
        text = function.__code__.co_code + repr(function.__code__.co_consts).encode()
    return hashlib.sha256(text).hexdigest()


def check_memory(name: str, memory: Any) -> int:
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or not 0 <= memory <= MAX_MEMORY:
        raise InputError(f"strategy {name}: memory must be an integer from 0 to {MAX_MEMORY}, got {memory!r}")
    return int(memory)


def check_params(name: str, params: Any) -> tuple[float, ...]:
    """A seat's weights as a tuple of finite floats (None: none)."""
    if params is None:
        return ()
    if isinstance(params, str):
        raise InputError(f"strategy {name}: params must be a list of numbers, got {params!r}")
    try:
        values = np.asarray(params, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise InputError(f"strategy {name}: params must be a list of numbers, got {params!r}") from None
    if len(values) > MAX_PARAMS or not np.isfinite(values).all():
        raise InputError(f"strategy {name}: params must be at most {MAX_PARAMS} finite numbers")
    return tuple(float(v) for v in values)


def parse_params(text: str) -> tuple[float, ...] | None:
    """``"0.3,1"`` -> (0.3, 1.0); ``""`` or ``"-"`` -> None (the CLI's per-seat params)."""
    text = text.strip()
    if text in ("", "-", "none"):
        return None
    try:
        return tuple(float(part) for part in text.split(","))
    except ValueError:
        raise InputError(f"strategy params {text!r}: give comma-separated numbers, e.g. 0.3,1.0") from None


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def _compile(strategy: UserStrategy) -> Any:
    from numba import njit
    from numba.core.errors import NumbaExperimentalFeatureWarning

    cache = strategy.origin != "object"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        dispatcher = njit(cache=cache)(strategy.function)
        try:
            try:
                dispatcher.compile(jit_user.SIG)
            except ModuleNotFoundError:
                # a cache entry that names a module this process cannot import (written under
                # another module name, e.g. by montecards before FileModuleLocator): useless
                # here, so it is dropped and the function compiled afresh
                dispatcher._cache.flush()
                dispatcher = njit(cache=cache)(strategy.function)
                dispatcher.compile(jit_user.SIG)
        except Exception as error:  # noqa: BLE001 - numba's typing/lowering errors
            raise StrategyError(
                f"strategy {strategy.reference} does not compile as {CONTRACT}: "
                f"{_compile_reason(error, dispatcher)}"
            ) from None
        dispatcher.disable_compile()
        returns = _return_type(strategy.function)
    if returns is not None and not isinstance(returns, (types.Integer, types.Boolean)):
        raise StrategyError(
            f"strategy {strategy.reference} returns {returns}, not an integer: it must return an "
            "index into legal (numba would truncate 0.5 to 0)"
        )
    return dispatcher


def _return_type(function: Callable[..., Any]) -> Any:
    """The type numba infers for ``function``'s return value given :data:`SIG`'s arguments
    (the compiled function converts it to int64, silently: a float index would be truncated),
    or None when it cannot tell. Type inference only: no code is generated."""
    from numba.core import typed_passes
    from numba.core.compiler import CompilerBase, DefaultPassBuilder, Flags
    from numba.core.registry import cpu_target

    class TypeOnly(CompilerBase):
        def define_pipelines(self):
            passes = DefaultPassBuilder.define_untyped_pipeline(self.state)
            passes.add_pass(typed_passes.NopythonTypeInference, "nopython frontend")
            passes.finalize()
            return [passes]

    typing, target = cpu_target.typing_context, cpu_target.target_context
    typing.refresh()
    target.refresh()
    pipeline = TypeOnly(typing, target, None, jit_user.SIG.args, None, Flags(), {})
    try:
        pipeline.compile_extra(function)
    except Exception:  # noqa: BLE001, S110 - the pipeline ends before lowering (no result): expected
        pass
    return getattr(pipeline.state, "return_type", None)


def _compile_reason(error: BaseException, dispatcher: Any = None) -> str:
    text = str(error)
    if isinstance(error, ModuleNotFoundError):
        cache = getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)
        folder = cache or "its numba cache folder (__pycache__ beside the file, or under NUMBA_CACHE_DIR)"
        return (f"numba's cache of it names module {error.name!r}, which this process did not import "
                f"(the file was imported under another name when the cache was written): delete {folder}")
    if "readonly" in text or "read-only" in text:
        return "it writes to a read-only argument (obs, legal and params are read-only)"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith(("File ", "During:", "^"))]
    for line in lines:
        if not line.lower().startswith(("failed in nopython mode", "no implementation", "[1m")):
            return re.sub(r"\x1b\[[0-9;]*m", "", line)[:300]
    return re.sub(r"\x1b\[[0-9;]*m", "", lines[0])[:300] if lines else type(error).__name__


def kernel_arg(seats: Sequence[UserStrategy | None], n_games: int) -> tuple:
    """``(fns, data)``: the kernels' user arguments for a chunk of ``n_games`` games
    (``engine/user_seats.py``); the games' ``run_chunk`` and ``trace_one`` take the pair as ``user``."""
    fns = [jit_user.no_strategy()] * jit_user.MAX_SEATS
    width = max([len(s.params) for s in seats if s is not None] + [1])
    params = np.zeros((jit_user.MAX_SEATS, width), dtype=np.float64)
    counts = np.zeros(jit_user.MAX_SEATS, dtype=np.int64)
    memory = 1
    for seat, strat in enumerate(seats):
        if strat is None:
            continue
        fns[seat] = strat.compiled()
        params[seat, : len(strat.params)] = strat.params
        counts[seat] = len(strat.params)
        memory = max(memory, strat.memory)
    return tuple(fns), (params, counts, memory, jit_user.new_faults(block_count(n_games)))


_KNOWN: dict[str, UserStrategy] = {}
"""User strategies by label, for this process: analyses name seats by strings (DataFrame
indexes, lineups), and a label given back resolves to the very strategy it names."""


def register(found: UserStrategy, batch: dict[str, UserStrategy] | None = None) -> str:
    """``found``'s label, under which :func:`known` finds it again (every label an output
    shows is valid input). Within one ``batch`` (the strategies of one call), another function
    that already holds the label (one of the same name, or a closure of the same source) gets
    the label numbered, ``choose#2``, so a label never names two strategies of a run; across
    calls the latest function of a label takes it over (a notebook cell run again keeps its
    name). A strategy of a file or module is not kept: its label loads it by reference (in any
    process, and a changed file is noticed)."""
    base = label = found.label
    if found.origin != "object":
        return label
    batch = {} if batch is None else batch
    number = 1
    while label in batch and not (batch[label].function is found.function
                                  and batch[label].params == found.params):
        number += 1
        label = f"{base}#{number}"
    if label != base:
        found = replace(found, alias=label)
    batch[label] = found
    _KNOWN[label] = found
    return label


def known(label: str) -> UserStrategy | None:
    """The user strategy :func:`register` gave ``label``, if any."""
    return _KNOWN.get(label)


def as_labels(strategies: Any) -> Any:
    """``strategies`` (None, one, or a list) with every user strategy object replaced by its
    registered label (strings and None pass through): for analyses that key seats by name."""
    if strategies is None or isinstance(strategies, str):
        return strategies
    if callable(strategies):
        return register(from_function(strategies))
    batch: dict[str, UserStrategy] = {}
    return [s if isinstance(s, str) or s is None else str(s) if isinstance(s, WeightedSeat)
            else register(from_function(s), batch) for s in strategies]


def seats_of(entries: Sequence[Any]) -> list[UserStrategy | None]:
    """Per seat, its user strategy or None (a built-in name)."""
    return [e if isinstance(e, UserStrategy) else None for e in entries]


def labels_of(entries: Sequence[Any]) -> list[str]:
    """Per seat, the name outputs show: a built-in's name, a user strategy's label (registered:
    given back as a strategy, it names the very same one)."""
    batch: dict[str, UserStrategy] = {}
    return [register(e, batch) if isinstance(e, UserStrategy) else str(e) for e in entries]


def user_arg(entries: Sequence[Any], n_games: int) -> tuple | None:
    """:func:`kernel_arg` for the seats that play user strategies, or None when none does."""
    seats = seats_of(entries)
    return kernel_arg(seats, n_games) if any(s is not None for s in seats) else None


def serial_call(entries: Sequence[Any], user: tuple | None, call: Callable[[], Any]) -> Any:
    """``call()`` — a serial kernel call (a trace, a decision log, a replay) — with the faults of
    its user strategies turned into :class:`StrategyError`."""
    if user is None:
        return call()
    seats = seats_of(entries)
    try:
        result = call()
    except InputError:
        raise
    except Exception as error:  # noqa: BLE001 - the user's code raised (serial: it comes out)
        faults = user[1][3]
        if faults[0, jit_user.FAULT_STATE] != jit_user.IN_CALL:
            raise  # not inside the strategy: a fault of montecards itself, shown as it is
        seat, game = int(faults[0, jit_user.FAULT_SEAT]), int(faults[0, jit_user.FAULT_GAME])
        raise StrategyError(f"{_where(seats, seat, game)} raised {_one_line(error)}") from None
    check_faults(user, seats, None)
    return result


def _where(seats: Sequence[UserStrategy | None], seat: int, game: int) -> str:
    label = seats[seat].label if 0 <= seat < len(seats) and seats[seat] is not None else "?"
    return f"strategy {label} (seat {seat}) in game {game}"


def check_faults(user: tuple, seats: Sequence[UserStrategy | None],
                 replay: Callable[[int, tuple], None] | None) -> None:
    """Raise :class:`StrategyError` for the first game (lowest index) a user strategy broke.

    ``replay(index, user)`` plays game ``index`` alone, serially, so that an exception the
    strategy raised comes out as itself, from the one game that raised it.
    """
    faults = user[1][3]
    # a block in state 0 never started (run_blocks stops handing out blocks after an exception
    # in another one): it broke nothing itself
    state = faults[:, jit_user.FAULT_STATE]
    broken = faults[(state != jit_user.DONE) & (state != 0)]
    if broken.shape[0] == 0:
        return
    record = broken[np.argmin(broken[:, jit_user.FAULT_GAME])]
    state, game, seat, value, n_legal = (int(x) for x in record[: jit_user.FAULT_FIELDS])
    where = _where(seats, seat, game)
    if state == jit_user.BAD_INDEX:
        raise StrategyError(
            f"{where} returned index {value}, outside its {n_legal} legal moves (0..{n_legal - 1})"
        )
    if replay is None:
        raise StrategyError(f"{where} stopped the game ({_describe(state)})")
    replayed = kernel_arg(seats, 1)
    try:
        replay(game, replayed)
    except StrategyError:
        raise
    except Exception as error:  # noqa: BLE001 - the user's code raised, or the kernel failed
        if replayed[1][3][0, jit_user.FAULT_STATE] != jit_user.IN_CALL:
            raise  # not inside the strategy: a fault of montecards itself, shown as it is
        raise StrategyError(f"{where} raised {_one_line(error)}") from None
    raise StrategyError(f"{where} stopped the run (replayed alone it did not fail: {_describe(state)})")


def _describe(state: int) -> str:
    return {jit_user.IN_CALL: "it stopped inside the strategy call",
            jit_user.RUNNING: "it stopped between decisions"}.get(state, f"state {state}")
