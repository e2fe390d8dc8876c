"""The `smelt` command of a pip install (console script) and `python -m smelt`.

`smelt convert ...` runs the converter of this package (smelt.convert: H5MD to GSD and LAMMPS);
every other command runs the compiled `smelt` tool that `pip install .` puts in the package
(smelt/bin/smelt: check, emit, devices, cache). Exit status: 0 done, 1 error, 2 usage error.
"""

import os
import sys


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "convert":
        from smelt import convert
        return convert.main(args[1:])
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "smelt")
    if not os.access(exe, os.X_OK):
        print("smelt: the compiled command-line tool is not part of this install (it needs "
              "CLI11 at build time); `smelt convert` works without it", file=sys.stderr)
        return 1
    os.execv(exe, [exe] + args)
    return 1  # not reached: execv replaces the process


if __name__ == "__main__":
    sys.exit(main())
