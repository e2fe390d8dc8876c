"""The one place smelt.parpy talks to the engine's loop-parallel functions.

``_smelt.LoopFunction(program, name, spec, backend=..., single=...)`` compiles the labelled
loops of a function as the parallel specification ``spec`` ({label: (threads, reduce, tpb)})
says (docs/LANGUAGE.md, "Loop-parallel functions"); calling it with the list of arguments runs
it, ``.source(args)`` gives the code generated for those arguments.
"""

from .. import _smelt
from .. import errors

__all__ = ["engine_spec", "make", "run", "source"]

def engine_spec(parallelize):
    """ParPy's {label: LoopPar} as the engine's {label: (threads, reduce, tpb)}."""
    return {label: (p.nthreads, p.is_reduction, p.threads_per_block)
            for label, p in parallelize.items()}


def _takes_options():
    """True when the LoopFunction binding takes ``options=`` (includes, libs, extra_flags)."""
    return "options" in (_smelt.LoopFunction.__init__.__doc__ or "")


def make(program, name, opts, backend, single):
    """The engine's LoopFunction for function `name` of `program` under `opts`."""
    extra = {k: list(getattr(opts, k)) for k in ("includes", "libs", "extra_flags")
             if getattr(opts, k)}
    kwargs = {"backend": backend, "single": single}
    if extra:
        if not _takes_options():
            raise errors.BackendUnavailableError(
                "CompileOptions %s: this build's loop-parallel functions take no compiler "
                "options" % ", ".join(sorted(extra)))
        kwargs["options"] = extra
    return _smelt.LoopFunction(program, name, engine_spec(opts.parallelize), **kwargs)


def run(impl, args):
    impl(list(args))


def source(impl, args):
    return impl.source(list(args))
