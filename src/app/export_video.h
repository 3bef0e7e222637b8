// --video FILE.mp4: the rendered frames as an H.264 video in an MP4 file, through FFmpeg's
// libraries (libavcodec, libavformat, libswscale). Frame 0 (the initial state) and every K-th
// frame (--export-every K) are the video's frames, at fps / K frames per second, so that the
// video plays in real time. The encoder is libx264 when libavcodec has it (Debian's does), else
// FFmpeg's first H.264 encoder. H.264 in 4:2:0 colour needs an even width and height: an odd side
// gets one more column or row, a copy of the last (a 65x47 render gives a 66x48 video).
// docs/export.md#video describes it.
#pragma once

#include <cctype>
#include <memory>
#include <string>
#include <utility>

#include "app/options.h"
#include "render/image_file.h"

namespace cloth {

// True for a name ending in .mp4 (any case). Inline: clothsim's options (cloth_app) check it
// without linking FFmpeg, which only the rendered runs (cloth_viewer) do.
inline bool isMp4Path(const std::string& path) {
    const std::size_t n = path.size();
    if (n < 4 || path[n - 4] != '.') return false;
    const auto lower = [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); };
    return lower(path[n - 3]) == 'm' && lower(path[n - 2]) == 'p' && path[n - 1] == '4';
}

// The H.264 encoder libavcodec offers ("libx264"), or "" when it has none.
std::string h264EncoderName();

// The video's frame rate for `fps` frames per simulated second exported every `every` frames, as
// a reduced fraction (numerator, denominator): 60/1 at 60 fps, 12/1 at 24 fps every 2, 2997/125
// at 23.976 fps. The frame rate is read to a thousandth of a frame per second.
std::pair<int, int> videoRate(double fps, int every);

// Checks --video PATH before a run, with one message "--video PATH: ..." (cloth::Error): the
// extension, the folder (it must exist), not a directory, writable (the file is created, empty),
// an H.264 encoder in libavcodec.
void checkVideoPath(const std::string& path);

class VideoWriter {
  public:
    // Nothing is opened until the first frame, whose size (made even) is the video's. `rate` as
    // videoRate gives it; `comment` goes into the file's metadata (the scene, fps, start frame).
    VideoWriter(std::string path, std::pair<int, int> rate, std::string comment);
    ~VideoWriter();
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    // Encodes one frame. A frame of another size than the first (a resized window) is scaled to
    // the video's size. Throws cloth::Error naming the file on any encoder or write error.
    void add(const render::ImageRgba8& image);
    // Flushes the encoder and closes the file; returns the line that says so ("" without frames).
    std::string finish();
    long long frames() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The writer clothsim's --video asks for (null without): at the scene's fps / --export-every,
// with a comment naming the scene, its frame rate and its start frame. Checks the path first
// (checkVideoPath).
std::unique_ptr<VideoWriter> makeVideoWriter(const Options& options, const std::string& scene,
                                             const SimSettings& sim);

}  // namespace cloth
