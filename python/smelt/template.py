"""Compyle's ``compyle.template``: kernel functions generated from Mako templates.

Subclass ``Template``, write the body of the function as a Mako template in the last string of a
``template(self, <args>)`` method (an optional first string is the docstring), and optionally
``extra_args()`` returning ``(names, annotations)``; ``Template(name).function`` is then an
ordinary kernel function named `name`, with the template's arguments plus the extra ones, whose
body is the rendered template (``obj`` in the template is the Template object; ``obj.inject(f)``
pastes the body of a method).

The rendered source is registered with linecache under ``<smelt-template-NAME-N>`` so the engine
and tracebacks find it, and it carries an ``@annotate(...)`` line with the types (the engine
reads types from the source). It runs in a namespace holding the kernel language's names and
the globals of the module defining the Template subclass, so the body may call kernel functions
of that module. Rendering uses Mako (Debian's python3-mako), as Compyle does.
"""

import ast
import inspect
import itertools
import re
import textwrap

from . import purepy
from ._source import register_source

__all__ = ["Template"]

_counter = itertools.count(1)
_INJECT_LINE = re.compile(r"^[ \t]+(\$\{\s*obj\.inject\(.*\)\s*\}[ \t]*)$", re.M)


def _annotations_of(params, template_types, extra):
    """{name: KnownType} from the template method's annotations and extra_args' dict (either
    Compyle form: ``{'x': 'int'}`` or ``{'doublep': 'x, y'}``)."""
    out = {k: purepy.type_of(v) for k, v in template_types.items()}
    for key, value in extra.items():
        if key in params or key in ("return", "return_"):
            out["return" if key == "return_" else key] = purepy.type_of(value)
        else:
            t = purepy.type_of(key)
            for name in str(value).split(","):
                if name.strip():
                    out[name.strip()] = t
    return out


def _annotate_line(annotations):
    parts = ["%s=%r" % ("return_" if k == "return" else k, v.name)
             for k, v in annotations.items()]
    return "@annotate(%s)\n" % ", ".join(parts) if parts else ""


class Template:
    """See the module docstring."""

    def __init__(self, name):
        self.name = name
        self._function = None
        self._source = None

    @property
    def function(self):
        """The generated kernel function (made once)."""
        if self._function is None:
            self._function = self._make_function()
        return self._function

    @property
    def source(self):
        self.function
        return self._source

    def _get_code(self):
        src = textwrap.dedent(inspect.getsource(self.template))
        body = ast.parse(src).body[0].body
        strings = [s.value.value for s in body
                   if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                   and isinstance(s.value.value, str)]
        if not strings:
            raise TypeError("%s.template() must end with a string holding the Mako template"
                            % type(self).__name__)
        template = strings[-1]
        docstring = strings[0] if len(strings) == 2 else ""
        args = list(inspect.signature(self.template).parameters)
        extra_args, extra_types = self.extra_args()
        args += list(extra_args)
        annotations = _annotations_of(args, getattr(self.template, "__annotations__", {}),
                                      extra_types)
        header = "def %s(%s):\n" % (self.name, ", ".join(args))
        if docstring:
            header += '    """%s\n    """\n' % docstring
        return _annotate_line(annotations) + header + self.render(template), annotations

    def _make_function(self):
        src, annotations = self._get_code()
        filename = "<smelt-template-%s-%d>" % (self.name, next(_counter))
        register_source(src, filename)
        namespace = dict(inspect.getmodule(type(self)).__dict__)
        namespace.update({k: getattr(purepy, k) for k in purepy.__all__})
        exec(compile(src, filename, "exec"), namespace)
        f = namespace[self.name]
        f.__module__ = type(self).__module__
        f.source = src
        self._source = src
        return f

    def inject(self, func, indent=1):
        """The body of `func` (without its docstring), indented by `indent` levels of 4 spaces:
        for use inside the Mako template."""
        lines = inspect.getsourcelines(func)[0]
        node = ast.parse(textwrap.dedent("".join(lines))).body[0]
        first = node.body[0]
        skip_doc = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str) and len(node.body) > 1)
        start = node.body[1 if skip_doc else 0].lineno - 1
        body = lines[start:]
        leading = len(body[0]) - len(body[0].lstrip())
        shift = indent * 4 - leading
        if shift < 0:
            return "".join(line[-shift:] for line in body)
        return "".join(" " * shift + line for line in body)

    def render(self, src):
        """`src` rendered by Mako with ``obj`` bound to this Template. A line holding only
        ``${obj.inject(...)}`` is rendered at the injected code's own indentation (inject
        indents every line it returns), so it may be written at the body's indentation, as in
        Compyle's documentation (where Compyle itself would indent its first line twice)."""
        import mako.template
        src = _INJECT_LINE.sub(lambda m: m.group(1), src)
        return mako.template.Template(text=src).render(obj=self)

    def extra_args(self):
        """Override: (list of extra argument names, {name or type: type or names})."""
        return [], {}

    def template(self):
        """Override: the last string of the body is the Mako template; ``obj`` is self."""
        """
        ## Mako code here.
        """
