#include "app/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>

namespace cloth {

bool isTerminal(const std::ostream& stream) {
    if (&stream == &std::cerr) return ::isatty(STDERR_FILENO) == 1;
    if (&stream == &std::cout) return ::isatty(STDOUT_FILENO) == 1;
    return false;
}

ProgressMode progressMode(bool standardStream, bool terminal, bool quiet) {
    if (quiet || !standardStream) return ProgressMode::Off;
    return terminal ? ProgressMode::Terminal : ProgressMode::Log;
}

ProgressMode progressMode(const std::ostream& stream, bool quiet) {
    return progressMode(&stream == &std::cerr || &stream == &std::cout, isTerminal(stream), quiet);
}

Progress::Progress(ProgressMode mode, std::ostream& out, std::string label, int total,
                   Clock::time_point start)
    : mode_(mode),
      out_(out),
      label_(std::move(label)),
      total_(total),
      start_(start),
      last_(start) {}

Progress Progress::on(std::ostream& stream, std::string label, int total, bool quiet) {
    return Progress(progressMode(stream, quiet), stream, std::move(label), total);
}

Progress::~Progress() {
    finish();
}

void Progress::update(int done, Clock::time_point now) {
    if (mode_ == ProgressMode::Off || done <= 0) return;
    if (mode_ == ProgressMode::Log) {
        if (now - last_ < kLogInterval) return;
        last_ = now;
        printed_ = true;
        const double ms = std::chrono::duration<double, std::milli>(now - start_).count() / done;
        out_ << line(label_, done, total_, ms) << '\n' << std::flush;
        return;
    }
    if (printed_ && now - last_ < kInterval) return;
    printed_ = true;
    last_ = now;
    const double ms = std::chrono::duration<double, std::milli>(now - start_).count() / done;
    // "\r" returns to the start of the line, ESC [K erases what a longer line left behind.
    out_ << '\r' << line(label_, done, total_, ms) << "\x1b[K" << std::flush;
    shown_ = true;
}

void Progress::finish() {
    if (!shown_) return;
    out_ << "\r\x1b[K" << std::flush;
    shown_ = false;
}

std::string Progress::duration(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    char text[48];
    if (s < 60)
        std::snprintf(text, sizeof text, "%ld s", s);
    else if (s < 3600)
        std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s / 60 % 60);
    return text;
}

std::string Progress::line(const std::string& label, int done, int total, double msPerFrame) {
    char text[96];
    std::snprintf(text, sizeof text, "frame %d of %d, %.3g ms/frame, ", done, total, msPerFrame);
    const double left = std::max(0, total - done) * msPerFrame / 1000.0;
    return label + ": " + text + duration(left) + " left";
}

PreparationProgress::PreparationProgress(ProgressMode mode, std::ostream& out, std::string label,
                                         std::uint64_t vertices, Clock::time_point start)
    : mode_(mode), out_(out), label_(std::move(label)), large_(vertices >= kLargeVertices),
      start_(start) {}

void PreparationProgress::stage(const std::string& what, Clock::time_point now) {
    if (mode_ == ProgressMode::Off || (!large_ && now - start_ < kQuiet)) return;
    out_ << line(label_, what, std::chrono::duration<double>(now - start_).count()) << '\n'
         << std::flush;
    printed_ = true;
}

std::string PreparationProgress::line(const std::string& label, const std::string& what,
                                      double seconds) {
    return label + ": preparing the scene: " + what + " (" + Progress::duration(seconds) +
           " so far)";
}

}  // namespace cloth
