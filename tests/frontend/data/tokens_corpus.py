# A file of tricky but valid Python, tokenised by CPython and by Smelt (lexer_test.cpp).
import math, os.path as osp
from typing import (List,
                    Dict)  # implicit joining inside brackets

N = 0x_FF + 0o17 + 0b1010_1010 + 1_000_000 + 0
X = 1. + .5 + 1e10 + 1E-3 + 2.5e+7 + 3j + 1.5J + 0.0 + 00 + 1_0.0_1e1_0


def f(a, b=2, *args, c: 'int' = 3, **kw) -> "float":
    """Docstring
    spanning lines with 'quotes' and \"escapes\"
    """
    if a:
        x = a ** -b // c >> 2 << 1 & 3 | 4 ^ ~5
        x **= 2; x //= 3; x >>= 1; x <<= 1; x @= m; x -> y if x else ... ; (y := 3)

        # a comment at a strange indentation
            # and another
    elif b != c <= a >= b < c > a == b:
        return [i for i in range(3)
                if i % 2]
    else:
        while True:
          pass   # two-space indent inside four
        y = {'k': (1,
    2), "q": b'\x00\xff' rb'\d' BR"x\y" Rb'''z'''}
    s = 'a' "b" '''c
d''' """e
f""" r'\n' u'\u00e9\x41\101\z' '\
continued'
    t = a + \
        b
    return s, t,


class C:
	def m(self):  # tabs, used consistently
		return self


if __name__ == '__main__':
    print(f(1), [*range(3)], {**{}}, lambda q: q @ q)
