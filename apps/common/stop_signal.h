// Ctrl-C handling for long runs: the first SIGINT/SIGTERM only asks the run to stop, so the driver
// finishes the current step and closes every output file valid; a second one ends the process the
// usual way (the default action), for a run that does not react.
#pragma once

namespace smelt::apps {

class StopSignal {
public:
    // Installs the handlers; the destructor puts the previous ones back. One instance at a time.
    StopSignal();
    ~StopSignal();
    StopSignal(const StopSignal &) = delete;
    StopSignal &operator=(const StopSignal &) = delete;

    // True once a stop was asked for (polled by the driver at the end of each step).
    bool requested() const;
    // The signal that asked (SIGINT or SIGTERM), 0 when none.
    int signal_number() const;
};

} // namespace smelt::apps
