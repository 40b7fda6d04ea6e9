"""``python -m texcv ...``: the texcv command that ``pip install .`` installed.

The same program as the CMake build's ``texcv`` (tools/texcv), installed into the environment's
scripts folder beside this Python; this module only finds it and replaces the Python process
with it, so its arguments, output, exit status and signals (Ctrl-C) are the command's own.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig


def command_path() -> str:
    """The installed texcv program: the environment's scripts folder, else the one on PATH."""
    name = "texcv.exe" if os.name == "nt" else "texcv"
    folders = [sysconfig.get_path("scripts"), os.path.dirname(sys.executable)]
    for folder in folders:
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which("texcv")
    if found:
        return found
    raise FileNotFoundError(
        "texcv: the texcv command is not installed beside this Python (looked in "
        + ", ".join(folders) + " and on PATH); expected it from `pip install .`, which builds it "
        "with the package (it needs CLI11: Debian's libcli11-dev)")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    try:
        path = command_path()
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path, *args])


if __name__ == "__main__":
    main()
