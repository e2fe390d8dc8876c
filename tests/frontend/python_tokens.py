# Oracle for lexer_test: prints CPython's tokens of a file in the test's format, one per line:
#   KIND LINE:COL TEXT
# Content tokens carry their position; strings are shown as the hex of their value (UTF-8 for
# str, raw bytes for bytes). NL and COMMENT tokens have no counterpart in Smelt and are dropped.
import ast
import sys
import tokenize

with open(sys.argv[1], 'rb') as f:
    tokens = list(tokenize.tokenize(f.readline))
for t in tokens:
    kind = tokenize.tok_name[t.type]
    if kind in ('ENCODING', 'NL', 'COMMENT'):
        continue
    if kind == 'NEWLINE':
        print('Newline')
    elif kind == 'INDENT':
        print('Indent')
    elif kind == 'DEDENT':
        print('Dedent')
    elif kind == 'ENDMARKER':
        print('End')
    else:
        pos = '%d:%d' % (t.start[0], t.start[1] + 1)
        if kind == 'NAME':
            print('Name', pos, t.string)
        elif kind == 'NUMBER':
            print('Number', pos, t.string)
        elif kind == 'OP':
            print('Op', pos, t.string)
        elif kind == 'STRING':
            v = ast.literal_eval(t.string)
            print('String', pos, (v if isinstance(v, bytes) else v.encode('utf-8')).hex())
        else:
            raise SystemExit('unexpected token %s %r' % (kind, t.string))
