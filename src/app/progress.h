// A progress line for long runs (clothsim headless, clothbench): "frame k of N, ms per frame,
// time left", rewritten in place on a terminal at most four times a second; in a log (the
// stream a pipe or a file: CI, a render farm) a line of its own every five seconds, the first
// after five, so that short runs print nothing; nothing with --quiet. The decision and the
// formatting live here, so that tests check them without a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace cloth {

// Whether `stream` is std::cout or std::cerr and that descriptor is a terminal (isatty).
bool isTerminal(const std::ostream& stream);

enum class ProgressMode {
    Off,       // no progress (--quiet, or a stream that is neither std::cout nor std::cerr)
    Terminal,  // one line rewritten in place
    Log,       // a line of its own every Progress::kLogInterval
};

// The mode for `stream`: Off when quiet or when it is neither std::cout nor std::cerr, else
// Terminal or Log as its descriptor is a terminal or not.
ProgressMode progressMode(const std::ostream& stream, bool quiet);
ProgressMode progressMode(bool standardStream, bool terminal, bool quiet);

class Progress {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kInterval{250};
    static constexpr std::chrono::milliseconds kLogInterval{5000};

    // `mode`: how to print, if at all. `label` starts the line ("clothsim"). `total`: the
    // frames to come. Times count from `start`.
    Progress(ProgressMode mode, std::ostream& out, std::string label, int total,
             Clock::time_point start = Clock::now());
    // On `stream` in its progressMode.
    static Progress on(std::ostream& stream, std::string label, int total, bool quiet = false);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // `done` of the total frames are done at `now`. On a terminal: prints the line the first
    // time, then rewrites it when the last one is at least kInterval old. In a log: a line
    // ending in a newline once the last one (or the start) is at least kLogInterval old.
    void update(int done, Clock::time_point now = Clock::now());
    // On a terminal, erases the line if one was printed (also done by the destructor).
    void finish();

    // "clothsim: frame 120 of 300, 12.5 ms/frame, 2 s left"
    static std::string line(const std::string& label, int done, int total, double msPerFrame);
    // "3 s", "1 min 05 s", "2 h 03 min"
    static std::string duration(double seconds);

  private:
    ProgressMode mode_;
    std::ostream& out_;
    std::string label_;
    int total_;
    Clock::time_point start_, last_;
    bool printed_ = false;  // a line was printed (and maybe erased since)
    bool shown_ = false;    // a line is on the terminal
};

// The preparation of a large scene (building its meshes and constraints, colouring them, the
// solver's own data), which takes seconds to minutes before the first frame: a line of its own
// as each stage starts, "clothsim: preparing the scene: colouring and packing the constraints
// (4 s so far)", in a log and on a terminal alike; for a scene of at least kLargeVertices grid
// vertices from the first stage, for a smaller one once the preparation has run kQuiet; nothing
// with --quiet.
class PreparationProgress {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kQuiet{2000};
    static constexpr std::uint64_t kLargeVertices = 250000;  // a 500^2 grid: about 6 s here

    PreparationProgress(ProgressMode mode, std::ostream& out, std::string label,
                        std::uint64_t vertices, Clock::time_point start = Clock::now());
    // `what` starts at `now`.
    void stage(const std::string& what, Clock::time_point now = Clock::now());
    bool printed() const { return printed_; }

    // "clothsim: preparing the scene: colouring and packing the constraints (4 s so far)"
    static std::string line(const std::string& label, const std::string& what, double seconds);

  private:
    ProgressMode mode_;
    std::ostream& out_;
    std::string label_;
    bool large_;
    Clock::time_point start_;
    bool printed_ = false;
};

}  // namespace cloth
