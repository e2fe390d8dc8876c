from math import sin


def axpb(i, x, y, a, b):
    y[i] = a * sin(x[i]) + b
