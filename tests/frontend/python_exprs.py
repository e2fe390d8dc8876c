# Oracle for parser_test: prints, for every assignment in every function of a file, the value
# expression as CPython's ast module parses it, in the S-expression form the test builds from
# Smelt's AST. Leaves and nodes located at their first token carry @LINE:COL (1-based byte
# columns); Binary, BoolOp and Compare do not, as Smelt locates them at the operator instead.
import ast
import sys

BIN = {ast.Add: '+', ast.Sub: '-', ast.Mult: '*', ast.Div: '/', ast.FloorDiv: '//',
       ast.Mod: '%', ast.Pow: '**', ast.LShift: '<<', ast.RShift: '>>', ast.BitOr: '|',
       ast.BitXor: '^', ast.BitAnd: '&'}
UN = {ast.USub: '-', ast.UAdd: '+', ast.Invert: '~', ast.Not: 'not'}
CMP = {ast.Eq: '==', ast.NotEq: '!=', ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>='}


def at(n):
    return '@%d:%d' % (n.lineno, n.col_offset + 1)


def sx(n):
    if isinstance(n, ast.Constant):
        v = n.value
        if isinstance(v, bool):
            return '%s%s' % (v, at(n))
        if isinstance(v, int):
            return '%d%s' % (v, at(n))
        if isinstance(v, float):
            return '%.17g%s' % (v, at(n))
        if isinstance(v, str):
            return 's:%s%s' % (v.encode('utf-8').hex(), at(n))
        raise SystemExit('constant %r' % (v,))
    if isinstance(n, ast.Name):
        return n.id + at(n)
    if isinstance(n, ast.UnaryOp):
        return '(%s%s %s)' % (UN[type(n.op)], at(n), sx(n.operand))
    if isinstance(n, ast.BinOp):
        return '(%s %s %s)' % (BIN[type(n.op)], sx(n.left), sx(n.right))
    if isinstance(n, ast.BoolOp):
        return '(%s %s)' % ('and' if isinstance(n.op, ast.And) else 'or',
                            ' '.join(sx(v) for v in n.values))
    if isinstance(n, ast.Compare):
        ops = ' '.join(CMP[type(o)] for o in n.ops)
        return '(cmp %s %s)' % (ops, ' '.join(sx(v) for v in [n.left] + n.comparators))
    if isinstance(n, ast.IfExp):
        return '(if%s %s %s %s)' % (at(n), sx(n.test), sx(n.body), sx(n.orelse))
    if isinstance(n, ast.Call):
        parts = [sx(n.func)] + [sx(a) for a in n.args]
        parts += ['(kw %s %s)' % (k.arg, sx(k.value)) for k in n.keywords]
        return '(call%s %s)' % (at(n), ' '.join(parts))
    if isinstance(n, ast.Subscript):
        return '(sub%s %s %s)' % (at(n), sx(n.value), sx(n.slice))
    if isinstance(n, ast.Attribute):
        return '(attr%s %s %s)' % (at(n), sx(n.value), n.attr)
    raise SystemExit('node %s' % type(n).__name__)


with open(sys.argv[1], 'rb') as f:
    tree = ast.parse(f.read())
for fn in tree.body:
    if isinstance(fn, ast.FunctionDef):
        for st in fn.body:
            if isinstance(st, ast.Assign):
                print(sx(st.value))
