// Notices held back until a run has started, so that an error before it (a mesh that cannot be
// read, an export folder that does not exist, a scene too large) is the only line on stderr;
// after release() they are written out and what follows goes straight through. The plain
// headless run does the same with a string stream (app/simulation.cpp); the rendered runs keep
// this stream for the whole run, as the viewer's simulation holds on to it.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace cloth {

namespace detail {

class DeferredBuffer : public std::streambuf {
  public:
    explicit DeferredBuffer(std::ostream& target) : target_(target) {}
    void release() {
        through_ = true;
        target_ << held_ << std::flush;
        held_.clear();
    }

  protected:
    int overflow(int c) override {
        if (c == traits_type::eof()) return traits_type::not_eof(c);
        const char ch = static_cast<char>(c);
        xsputn(&ch, 1);
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        if (through_)
            target_.write(s, n);
        else
            held_.append(s, static_cast<std::size_t>(n));
        return n;
    }
    int sync() override {
        if (through_) target_.flush();
        return 0;
    }

  private:
    std::ostream& target_;
    std::string held_;
    bool through_ = false;
};

// The buffer, constructed before the ostream that writes into it (a base listed first).
struct DeferredBufferHolder {
    explicit DeferredBufferHolder(std::ostream& target) : buffer(target) {}
    DeferredBuffer buffer;
};

}  // namespace detail

class DeferredNotices : private detail::DeferredBufferHolder, public std::ostream {
  public:
    explicit DeferredNotices(std::ostream& target)
        : detail::DeferredBufferHolder(target), std::ostream(&buffer) {}
    // Writes what was held and lets everything after through.
    void release() { buffer.release(); }
};

}  // namespace cloth
