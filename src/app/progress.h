// A progress line for long runs (clothsim headless, clothbench): "frame k of N, ms per frame,
// time left", rewritten in place on a terminal at most four times a second, and nothing at all
// when the stream is not a terminal (a pipe, a file, a test). The decision and the formatting
// live here, so that tests check them without a terminal.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>

namespace cloth {

// Whether `stream` is std::cout or std::cerr and that descriptor is a terminal (isatty).
bool isTerminal(const std::ostream& stream);

class Progress {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kInterval{250};

    // `terminal`: whether to print at all. `label` starts the line ("clothsim"). `total`: the
    // frames to come. Times count from `start`.
    Progress(bool terminal, std::ostream& out, std::string label, int total,
             Clock::time_point start = Clock::now());
    // On `stream` when it is a terminal (isTerminal).
    static Progress on(std::ostream& stream, std::string label, int total);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // `done` of the total frames are done at `now`: prints the line the first time, then
    // rewrites it when the last one is at least kInterval old.
    void update(int done, Clock::time_point now = Clock::now());
    // Erases the line, if one was printed (also done by the destructor).
    void finish();

    // "clothsim: frame 120 of 300, 12.5 ms/frame, 2 s left"
    static std::string line(const std::string& label, int done, int total, double msPerFrame);
    // "3 s", "1 min 05 s", "2 h 03 min"
    static std::string duration(double seconds);

  private:
    bool terminal_;
    std::ostream& out_;
    std::string label_;
    int total_;
    Clock::time_point start_, last_;
    bool printed_ = false;  // a line was printed (and maybe erased since)
    bool shown_ = false;    // a line is on the terminal
};

}  // namespace cloth
