// Passive OpenMP waiting by default in executables that load libgomp when they start.
//
// libgomp's idle threads spin (GOMP_SPINCOUNT, 300000 by default) before they sleep. Between two
// primitive calls that spinning takes the cores the calling thread and other processes need: on
// a machine with other work running, runs of many short kernels became ten times slower unless
// OMP_WAIT_POLICY=passive was set. libgomp reads its variables once, in its own initialiser,
// which runs before main() and before any constructor of the executable; even an executable's
// .preinit_array, which runs first, cannot change the environment libgomp will see (the C
// library's initialiser, which runs before libgomp's, installs the environment from the stack
// again). So when the executable loads libgomp at start and the user set neither
// OMP_WAIT_POLICY nor GOMP_SPINCOUNT, this .preinit_array entry runs the executable once more
// (execve of /proc/self/exe, same arguments) with OMP_WAIT_POLICY=passive added. The user's
// setting always wins; setting either variable also avoids the second start (useful under
// valgrind, which does not follow exec unless --trace-children=yes).
//
// Executables that load libgomp later, with their first CPU kernel, get the variable from
// default_openmp_wait_policy() instead (support/openmp_wait_policy.h), without a second start.
// Only executables can have a .preinit_array: engine/CMakeLists.txt makes executables that link
// smelt_engine pull this object in (--undefined=smelt_openmp_defaults_entry); the Python module
// does not, and the package sets the variable in its __init__ before the extension is loaded.
//
// This runs before the C library is initialised: it reads the environment from its argument and
// calls nothing but execve.
#include <unistd.h>

#include <alloca.h>
#include <cstddef>

extern "C" {

// Resolves (is non-null) only when the executable was linked with libgomp.
int omp_get_max_threads(void) __attribute__((weak));

static bool smelt_has_variable(char **envp, const char *name) {
    for (char **e = envp; *e; ++e) {
        const char *a = *e, *b = name;
        while (*b && *a == *b) {
            ++a;
            ++b;
        }
        if (!*b && *a == '=') return true;
    }
    return false;
}

static void smelt_openmp_defaults(int, char **argv, char **envp) {
    if (!omp_get_max_threads || !argv || !envp) return;
    if (smelt_has_variable(envp, "OMP_WAIT_POLICY") || smelt_has_variable(envp, "GOMP_SPINCOUNT"))
        return;
    size_t n = 0;
    while (envp[n])
        ++n;
    char **env = static_cast<char **>(alloca((n + 2) * sizeof(char *)));
    for (size_t k = 0; k < n; ++k)
        env[k] = envp[k];
    static char passive[] = "OMP_WAIT_POLICY=passive";
    env[n] = passive;
    env[n + 1] = nullptr;
    ::execve("/proc/self/exe", argv, env);
    // Only reached when execve failed (no /proc): libgomp keeps its own default.
}

using SmeltPreinitFunction = void (*)(int, char **, char **);
// extern: a const object would otherwise have internal linkage, and --undefined could not pull
// this file out of the archive by its name.
extern const SmeltPreinitFunction smelt_openmp_defaults_entry;
__attribute__((section(".preinit_array"), used))
const SmeltPreinitFunction smelt_openmp_defaults_entry = smelt_openmp_defaults;
}
