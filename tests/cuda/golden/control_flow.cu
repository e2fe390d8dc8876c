#line 6 "control_flow.py"
SMELT_INLINE double loops(int32_t n, int32_t step, double *x) {
    double s = 0;
    int32_t k = 0;
    int32_t k_it = 0;
    int32_t k_stop = 0;
    int32_t k_step = 0;
    int32_t k_it2 = 0;
    int32_t j = 0;
#line 7 "control_flow.py"
    s = 0.0;
    for (k_it = n; k_it > 0; --k_it) {
#line 8 "control_flow.py"
        k = k_it;
        s = s + x[k];
    }
#line 10 "control_flow.py"
    k_stop = n;
#line 10 "control_flow.py"
    k_step = step;
#line 10 "control_flow.py"
    for (k_it2 = 0; (k_step > 0) ? (k_it2 < k_stop) : (k_step < 0 && k_it2 > k_stop); k_it2 += k_step) {
#line 10 "control_flow.py"
        k = k_it2;
        if (k > 10) {
            break;
        } else if (smelt_mod_i32(k, 2) == 0) {
            continue;
        }
#line 15 "control_flow.py"
        s = s - (x[k] * 5.0);
    }
#line 16 "control_flow.py"
    j = 0;
    while (true) {
        j = smelt_add_i32(j, 1);
        if (j >= n) {
            break;
        }
    }
#line 21 "control_flow.py"
    return (s > 0.0) ? s : (-s);
}
