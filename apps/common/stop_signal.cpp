#include "stop_signal.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace smelt::apps {

namespace {

// Only lock-free atomics and async-signal-safe calls (write, sigaction, raise) in the handler.
std::atomic<int> g_signal{0};
std::atomic<bool> g_installed{false};
struct sigaction g_old_int, g_old_term;

void on_signal(int sig) {
    if (g_signal.exchange(sig) != 0) {
        // Second request: default action (terminate) so a stuck run can still be stopped.
        struct sigaction dfl;
        std::memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, nullptr);
        raise(sig);
        return;
    }
    const char msg[] = "\nstop requested: finishing the current step and closing files "
                       "(signal again to abort)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
}

} // namespace

StopSignal::StopSignal() {
    static_assert(std::atomic<int>::is_always_lock_free);
    if (g_installed.exchange(true)) throw std::logic_error("StopSignal is already installed");
    g_signal = 0;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART; // file writes in progress are not cut short by EINTR
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &g_old_int);
    sigaction(SIGTERM, &sa, &g_old_term);
}

StopSignal::~StopSignal() {
    sigaction(SIGINT, &g_old_int, nullptr);
    sigaction(SIGTERM, &g_old_term, nullptr);
    g_installed = false;
}

bool StopSignal::requested() const {
    return g_signal.load() != 0;
}

int StopSignal::signal_number() const {
    return g_signal.load();
}

} // namespace smelt::apps
