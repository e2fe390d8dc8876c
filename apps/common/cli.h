// The command line every app shares (implemented in cli.cpp, used through app.h's cli_main):
//
//   APP run CONFIG [--backend cpu|opencl|cuda] [--precision single|double] [--steps N]
//                  [--output DIR] [--threads N] [--set key.path=value ...]
//                  [--restart CHECKPOINT | --overwrite]
//   APP check CONFIG [--set key.path=value ...]   validate, print the resolved configuration
//   APP --help | --version
//
// --backend, --precision, --threads, --output and --steps set the keys backend, precision,
// threads, output.directory and the app's step-count key; --set sets any key (a dotted path,
// the value read as YAML: 3, 0.5, true, [4, 4], cpu). All of them are applied to the YAML before
// the schema checks, so a bad value or an unknown key is the usual located error, which then
// says that the value came from the command line. The stored config text (H5MD parameters,
// checkpoints) ends with a comment line listing them.
//
// --restart continues the run of a checkpoint (<prefix>_checkpoint.h5) with CONFIG (typically
// the same one, perhaps with more steps): the state comes from the checkpoint, the output files
// are continued (run_loop.h).
//
// Output files are never replaced silently: a run whose output directory already holds files of
// its prefix (an earlier run's) stops with exit status 1 and a message naming the file, unless
// --overwrite is given (the old files are removed first) or it is a --restart. A run whose files
// another run is writing at the time is always refused (output_guard.h).
//
// Exit status:
//   0    the run is done (check: the config is valid)
//   1    a configuration or run-time error (message on stderr; config errors as
//        file:line:col: error: key: message), output that may not be written (another run's,
//        or an earlier run's without --overwrite), a simulation that blew up (a state that is
//        not finite: the message names the step; files valid up to it)
//   2    a command-line usage error (unknown option, bad option value, missing CONFIG)
//   130  stopped by SIGINT / SIGTERM; the step in progress finished and every file is valid
#pragma once

namespace smelt::apps {

enum ExitStatus : int {
    kExitDone = 0,
    kExitError = 1,
    kExitUsage = 2,
    kExitStopped = 130,
};

} // namespace smelt::apps
