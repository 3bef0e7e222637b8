// Running clothsim without a window but with images (--screenshot, --record), and choosing
// between the window and headless runs.
#pragma once

#include <iosfwd>

#include "app/options.h"

namespace cloth {

// Simulates --frames frames (default 300) and renders, offscreen, frame 0 and every K-th frame
// for --record DIR and the last frame for --screenshot FILE. Returns the exit code.
int runHeadlessRendered(const Options& options, std::ostream& out, std::ostream& notices);

// clothsim's run modes:
//  - a window when --headless is absent and a display is present (DISPLAY or WAYLAND_DISPLAY set
//    and SDL's video starts);
//  - otherwise headless: rendered offscreen when an image is asked for, else the plain
//    simulation run. With no arguments at all and no display, it writes a screenshot of the
//    default scene to clothsim.png and says so; if there is no Vulkan device either, it
//    simulates on the CPU without an image and says so. Asking for images (or a window on a
//    display) without a Vulkan device is an error.
int runClothsim(Options options, bool noArguments, std::ostream& out, std::ostream& notices);

constexpr const char* kDefaultScreenshot = "clothsim.png";

}  // namespace cloth
