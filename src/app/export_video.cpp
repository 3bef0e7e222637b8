#include "app/export_video.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
}

#include "core/error.h"

namespace cloth {

namespace {

std::string avError(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

const AVCodec* h264Encoder() {
    if (const AVCodec* c = avcodec_find_encoder_by_name("libx264")) return c;
    return avcodec_find_encoder(AV_CODEC_ID_H264);
}

int even(int n) {
    return n + (n & 1);
}

}  // namespace

std::string h264EncoderName() {
    const AVCodec* c = h264Encoder();
    return c ? c->name : "";
}

std::pair<int, int> videoRate(double fps, int every) {
    const long long milli = std::llround(fps * 1000.0);
    long long num = milli, den = 1000LL * every;
    const long long g = std::gcd(num, den);
    return {int(num / g), int(den / g)};
}

void checkVideoPath(const std::string& path) {
    namespace fs = std::filesystem;
    const std::string where = "--video " + path + ": ";
    if (!isMp4Path(path))
        throw Error(where +
                    "expected a file ending in .mp4 (any case): the video is H.264 in an "
                    "MP4 file");
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw Error(where + "no directory " + parent.string());
    if (fs::is_directory(path, ec)) throw Error(where + "is a directory");
    if (h264EncoderName().empty())
        throw Error(where +
                    "this FFmpeg (libavcodec) has no H.264 encoder; install one with "
                    "libx264 (Debian: libavcodec59)");
    // Opened for writing now, so that an unwritable place fails before the run, not after it;
    // left as it was (a file that was not there is removed again).
    const bool existed = fs::exists(path, ec);
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (!f) throw Error(where + "cannot write file: " + std::strerror(errno));
    std::fclose(f);
    if (!existed) fs::remove(path, ec);
}

struct VideoWriter::Impl {
    std::string path;
    AVRational rate{60, 1};
    std::string comment;
    AVFormatContext* fmt = nullptr;
    AVCodecContext* enc = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* sws = nullptr;
    int width = 0, height = 0;  // the video's (even)
    long long frames = 0;
    std::vector<std::uint8_t> padded;

    ~Impl() { release(); }

    [[noreturn]] void fail(const std::string& what, int code) const {
        throw Error("--video " + path + ": " + what + ": " + avError(code));
    }

    void release() {
        if (fmt && fmt->pb) avio_closep(&fmt->pb);
        avformat_free_context(fmt);
        fmt = nullptr;
        avcodec_free_context(&enc);
        av_frame_free(&frame);
        av_packet_free(&packet);
        sws_freeContext(sws);
        sws = nullptr;
    }

    void open(int w, int h) {
        av_log_set_level(AV_LOG_ERROR);  // libx264 reports its settings and statistics at info
        width = even(w);
        height = even(h);
        int r = avformat_alloc_output_context2(&fmt, nullptr, "mp4", path.c_str());
        if (r < 0 || !fmt) fail("cannot make an MP4 file", r);
        const AVCodec* codec = h264Encoder();
        if (!codec) throw Error("--video " + path + ": libavcodec has no H.264 encoder");
        stream = avformat_new_stream(fmt, nullptr);
        enc = avcodec_alloc_context3(codec);
        if (!stream || !enc) throw Error("--video " + path + ": out of memory");
        enc->width = width;
        enc->height = height;
        enc->pix_fmt = AV_PIX_FMT_YUV420P;
        enc->time_base = av_inv_q(rate);
        enc->framerate = rate;
        // The renderer's pixels are sRGB; BT.709's matrix, limited range, tagged so.
        enc->color_range = AVCOL_RANGE_MPEG;
        enc->colorspace = AVCOL_SPC_BT709;
        enc->color_primaries = AVCOL_PRI_BT709;
        enc->color_trc = AVCOL_TRC_IEC61966_2_1;
        if (fmt->oformat->flags & AVFMT_GLOBALHEADER) enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        AVDictionary* options = nullptr;
        if (std::strcmp(codec->name, "libx264") == 0) {
            av_dict_set(&options, "preset", "medium", 0);
            av_dict_set(&options, "crf", "18", 0);  // visually lossless for most scenes
        }
        r = avcodec_open2(enc, codec, &options);
        av_dict_free(&options);
        if (r < 0) fail(std::string("cannot start the H.264 encoder ") + codec->name, r);
        r = avcodec_parameters_from_context(stream->codecpar, enc);
        if (r < 0) fail("cannot set the stream's parameters", r);
        stream->time_base = enc->time_base;
        stream->avg_frame_rate = rate;
        if (!comment.empty()) av_dict_set(&fmt->metadata, "comment", comment.c_str(), 0);
        r = avio_open(&fmt->pb, path.c_str(), AVIO_FLAG_WRITE);
        if (r < 0) fail("cannot write file", r);
        r = avformat_write_header(fmt, nullptr);
        if (r < 0) fail("cannot write the MP4 header", r);
        frame = av_frame_alloc();
        packet = av_packet_alloc();
        if (!frame || !packet) throw Error("--video " + path + ": out of memory");
        frame->format = enc->pix_fmt;
        frame->width = width;
        frame->height = height;
        r = av_frame_get_buffer(frame, 0);
        if (r < 0) fail("cannot allocate a frame", r);
    }

    // Sends `f` (null: the end) and writes every packet the encoder has ready.
    void send(const AVFrame* f) {
        int r = avcodec_send_frame(enc, f);
        if (r < 0) fail("the encoder refused a frame", r);
        for (;;) {
            r = avcodec_receive_packet(enc, packet);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
            if (r < 0) fail("the encoder failed", r);
            packet->duration = 1;  // one frame, in the encoder's time base (1 / rate)
            av_packet_rescale_ts(packet, enc->time_base, stream->time_base);
            packet->stream_index = stream->index;
            r = av_interleaved_write_frame(fmt, packet);
            if (r < 0) fail("cannot write file", r);
        }
    }

    // `image` with an odd side made even by repeating its last column or row.
    const std::uint8_t* evenPixels(const render::ImageRgba8& image, int& w, int& h) {
        w = even(image.width);
        h = even(image.height);
        if (w == image.width && h == image.height) return image.pixels.data();
        padded.assign(std::size_t(w) * h * 4, 0);
        for (int y = 0; y < h; ++y) {
            const std::uint8_t* src =
                image.pixels.data() + std::size_t(std::min(y, image.height - 1)) * image.width * 4;
            std::uint8_t* dst = padded.data() + std::size_t(y) * w * 4;
            std::memcpy(dst, src, std::size_t(image.width) * 4);
            if (w != image.width)
                std::memcpy(dst + image.width * 4, src + (image.width - 1) * 4, 4);
        }
        return padded.data();
    }
};

std::unique_ptr<VideoWriter> makeVideoWriter(const Options& o, const std::string& scene,
                                             const SimSettings& sim) {
    if (o.video.empty()) return nullptr;
    checkVideoPath(o.video);
    char comment[256];
    std::snprintf(comment, sizeof comment,
                  "clothsim: scene %s, frame %d first, every %d frame(s) of %g fps", scene.c_str(),
                  sim.startFrame, o.exportEvery, double(sim.fps));
    return std::make_unique<VideoWriter>(o.video, videoRate(sim.fps, o.exportEvery), comment);
}

VideoWriter::VideoWriter(std::string path, std::pair<int, int> rate, std::string comment)
    : impl_(std::make_unique<Impl>()) {
    impl_->path = std::move(path);
    impl_->rate = AVRational{rate.first, rate.second};
    impl_->comment = std::move(comment);
}

VideoWriter::~VideoWriter() = default;

long long VideoWriter::frames() const {
    return impl_->frames;
}

void VideoWriter::add(const render::ImageRgba8& image) {
    Impl& v = *impl_;
    if (!v.fmt) v.open(image.width, image.height);
    int w = 0, h = 0;
    const std::uint8_t* pixels = v.evenPixels(image, w, h);
    v.sws = sws_getCachedContext(v.sws, w, h, AV_PIX_FMT_RGBA, v.width, v.height,
                                 AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (!v.sws) throw Error("--video " + v.path + ": cannot convert the frames to YUV 4:2:0");
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(v.sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    const int r = av_frame_make_writable(v.frame);
    if (r < 0) v.fail("cannot write a frame", r);
    const std::uint8_t* src[1] = {pixels};
    const int stride[1] = {w * 4};
    sws_scale(v.sws, src, stride, 0, h, v.frame->data, v.frame->linesize);
    v.frame->pts = v.frames++;
    v.send(v.frame);
}

std::string VideoWriter::finish() {
    Impl& v = *impl_;
    if (!v.fmt) return "";
    v.send(nullptr);
    const int r = av_write_trailer(v.fmt);
    if (r < 0) v.fail("cannot finish the MP4 file", r);
    const double seconds = double(v.frames) * v.rate.den / v.rate.num;
    char line[512];
    std::snprintf(line, sizeof line,
                  "video written to %s: %lld frames (%.4g s at %.6g fps), %dx%d, H.264 (%s)",
                  v.path.c_str(), v.frames, seconds, av_q2d(v.rate), v.width, v.height,
                  v.enc->codec->name);
    v.release();
    return line;
}

}  // namespace cloth
