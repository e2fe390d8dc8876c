"""Compyle's ``compyle.types``: type objects, ``annotate``, ``declare``, ``KnownType`` (all from
smelt.purepy, the kernel language's CPython meaning) and Compyle's dtype <-> C type helpers.

``TYPES`` maps every type spelling smelt knows (the language's names, Compyle's ``int_``
aliases and ``g``/``l`` pointer names) to its KnownType; C spellings with spaces or ``*``
(``'unsigned int'``, ``'GLOBAL_MEM double*'``) are accepted wherever a type name is, by
``type_of``, ``annotate``, ``declare`` and the engine.
"""

import ast as _ast
import platform as _platform

import numpy as _np

from .purepy import *  # noqa: F401,F403
from .purepy import __all__ as _purepy_all
from .purepy import _TYPES as TYPES  # noqa: F401  every type spelling -> KnownType
from .purepy import KnownType, type_of

BITS = _platform.architecture()[0]

NP_C_TYPE_MAP = {
    _np.dtype(bool): "char",
    _np.dtype(_np.float32): "float", _np.dtype(_np.float64): "double",
    _np.dtype(_np.int8): "char", _np.dtype(_np.uint8): "unsigned char",
    _np.dtype(_np.int16): "short", _np.dtype(_np.uint16): "unsigned short",
    _np.dtype(_np.int32): "int", _np.dtype(_np.uint32): "unsigned int",
    _np.dtype(_np.int64): "long", _np.dtype(_np.uint64): "unsigned long",
}

C_NP_TYPE_MAP = {
    "bool": bool, "char": _np.int8, "double": _np.float64, "float": _np.float32,
    "int": _np.int32, "long": _np.int64, "short": _np.int16, "unsigned char": _np.uint8,
    "unsigned int": _np.uint32, "unsigned long": _np.uint64, "unsigned short": _np.uint16,
}

NP_TYPE_LIST = list(C_NP_TYPE_MAP.values())


class Undefined:
    """Compyle's marker for a type not known yet."""


def dtype_to_ctype(dtype, backend=None):
    """The C name of a NumPy dtype: 'double', 'unsigned int', ... (bool is 'char')."""
    return NP_C_TYPE_MAP[_np.dtype(dtype)]


def ctype_to_dtype(ctype):
    """The NumPy dtype of a C type name ('unsigned int' -> uint32)."""
    return _np.dtype(C_NP_TYPE_MAP[ctype])


def knowntype_to_ctype(knowntype):
    """The C spelling of a type name: 'gdoublep' -> 'GLOBAL_MEM double*'."""
    try:
        return type_of(knowntype).type
    except ValueError:
        raise ValueError("not a valid known type: %r" % (knowntype,)) from None


def dtype_to_knowntype(dtype, address="scalar", backend=None):
    """The type name of a dtype as a scalar ('scalar'), pointer ('ptr'), global pointer
    ('global') or local pointer ('local'): float64 -> 'double', 'doublep', 'gdoublep',
    'ldoublep'; unsigned types as 'uint', 'uintp', ..."""
    name = dtype_to_ctype(dtype, backend).replace("unsigned ", "u").replace(" ", "")
    forms = {"scalar": "%s", "ptr": "%sp", "global": "g%sp", "local": "l%sp"}
    if address not in forms:
        raise ValueError("address can only be scalar, ptr, global or local")
    return forms[address] % name


def get_declare_info(arg):
    """(kind, address_space, type, shape) of a declare() string, as Compyle gives them: kind
    'primitive' or 'matrix', the address space ('', 'LOCAL_MEM', 'GLOBAL_MEM'), the C type and
    the matrix shape (None for primitives)."""
    address_space, shape = "", None
    if arg.startswith(("LOCAL_MEM", "GLOBAL_MEM")):
        address_space, arg = arg.split(None, 1)
    if arg.startswith("matrix"):
        value = _ast.literal_eval(arg[len("matrix("):-1])
        if isinstance(value, tuple) and len(value) > 1 and isinstance(value[1], str):
            return "matrix", address_space, value[1], value[0]
        return "matrix", address_space, "double", value
    return "primitive", address_space, arg, shape


__all__ = list(_purepy_all) + [
    "TYPES", "BITS", "NP_C_TYPE_MAP", "C_NP_TYPE_MAP", "NP_TYPE_LIST", "Undefined",
    "dtype_to_ctype", "ctype_to_dtype", "knowntype_to_ctype", "dtype_to_knowntype",
    "get_declare_info", "KnownType"]


def kwtype_to_annotation(kw):
    """Compyle's conversion of annotate()'s keywords to {name: KnownType}: ``{'i': 'int'}`` or
    ``{'doublep': 'x, y'}`` (a ``return_`` name is the result, under 'return')."""
    data = {}
    for name, value in kw.items():
        if isinstance(value, str) and "," in value:
            for x in value.split(","):
                x = x.strip()
                data["return" if x == "return_" else x] = type_of(name)
        else:
            data["return" if name == "return_" else name] = type_of(value)
    return data


__all__.append("kwtype_to_annotation")
