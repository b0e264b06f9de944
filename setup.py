"""The optional compiled engines (everything else is in pyproject.toml).

With Cython and a C compiler the modules named in ``simcli/native.py`` (``COMPILED``)
are compiled from their unchanged ``.py`` sources into extension modules; a module that
fails to compile, or a machine without a compiler, leaves the pure Python path, which
gives the same results. ``native_build.json`` records the source digest of every module
built, so that an edited source runs as edited (see ``simcli/native.py``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def native_module():
    """simcli/native.py, loaded on its own (standard library only; simcli itself is not
    imported): its ``COMPILED`` list and ``source_digest``."""
    spec = importlib.util.spec_from_file_location("simcli_native", HERE / "simcli" / "native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NATIVE = native_module()


def source(module: str) -> Path:
    """The source of ``module``, relative to this folder."""
    return NATIVE.source_path(module, Path())


def extensions() -> list:
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        print("simcli: Cython is not installed: the pure Python engines only", file=sys.stderr)
        return []
    modules = [Extension(m, [str(source(m))]) for m in NATIVE.COMPILED + NATIVE.KERNELS]
    # Cython finds a module's .pxd by the module's import name: a package whose folder
    # is named otherwise (strategies/ is simcli_strategies) is linked under its name
    names = HERE / "build" / "pxd"
    names.mkdir(parents=True, exist_ok=True)
    for package, folder in NATIVE.PACKAGE_DIRS.items():
        link = names / package
        if not link.exists():
            link.symlink_to(HERE / folder, target_is_directory=True)
    out = []
    for module in modules:  # one at a time: a module that fails stays pure, alone
        try:
            out += cythonize(
                [module],
                build_dir="build/cython",
                include_path=[str(names)],
                compiler_directives={
                    "language_level": "3",
                    "annotation_typing": module.name not in NATIVE.UNTYPED,
                },
                quiet=True,
            )
        except Exception as exc:  # noqa: BLE001 - any failure leaves the pure path
            print(f"simcli: {module.name} not compiled ({exc}): pure Python", file=sys.stderr)
    return out


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install: what does not compile stays pure Python."""

    def run(self) -> None:
        self.built: list[str] = []
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no compiler, or a broken one
            print(f"simcli: no compiled engines ({exc}): pure Python", file=sys.stderr)
        self.write_build_file()

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            print(f"simcli: {ext.name} not compiled ({exc}): pure Python", file=sys.stderr)
            return
        self.built.append(ext.name)

    def write_build_file(self) -> None:
        digests = {m: NATIVE.source_digest(m, HERE) for m in self.built}
        text = json.dumps(digests, indent=1, sort_keys=True) + "\n"
        folders = {Path(self.get_ext_fullpath("simcli.native_build")).parent}
        if self.inplace or getattr(self, "editable_mode", False):
            folders.add(HERE / "simcli")  # the extensions are copied beside the sources
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "native_build.json").write_text(text, encoding="utf-8")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
