# Expressions parsed by CPython's ast module and by Smelt (parser_test.cpp): the trees must
# agree, which checks precedence, associativity, literal values and locations.
def exprs(a, b, c, d, x, y):
    _ = a + b * c
    _ = a * b + c
    _ = a - b - c
    _ = a / b / c // d % x
    _ = a ** b ** c
    _ = -a ** b
    _ = -2**2
    _ = 2 ** -1
    _ = (-2) ** 2
    _ = -+~a
    _ = ~a ** -b
    _ = a | b ^ c & d
    _ = a & b | c & d
    _ = a << b + c >> d
    _ = a + b << c
    _ = a | b == c
    _ = a < b < c
    _ = a == b != c <= d >= x > y
    _ = a < b and b < c or not d
    _ = a or b and c or d
    _ = a and b and c
    _ = not a == b
    _ = not not a
    _ = a if b else c
    _ = a if b else c if d else x
    _ = (a if b else c) + 1
    _ = a or b if c and d else x or y
    _ = a + (b + c)
    _ = ((a))
    _ = f(a, b + 1, key='int', other=c * 2)
    _ = f()
    _ = f(a)(b)
    _ = x[i][j + 1]
    _ = (a + b)[i]
    _ = math.sin(a).real
    _ = x[i] * 2.0 - y[i + 1] / 3
    _ = 0x1F + 0o17 + 0b101 + 1_000_000 + 18446744073709551615
    _ = 1. + .5 + 1e10 + 2.5E-3 + 1_0.2_5 + 0.1 + 1e308 + 1e400
    _ = True and False
    _ = 'abc' "def" '''g'''
    _ = declare('matrix((2, 2), "int")')
    _ = f(
        a,
        b)
    _ = a + \
        b
    _ = -x[-i]
    _ = a % b ** 2 * -c
    _ = a if not b else -c ** 2
